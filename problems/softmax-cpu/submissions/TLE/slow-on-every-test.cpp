// Correct, but sleeps 2 s in every call: each call is under the per-call limit of 5 s, the functional tests together
// are not. Must get TLE from the phase limit (30 s of solve() time over all the tests) after about 15 tests, not
// hours later.
// hpcjudge-test: message=the limit for all of them
#include <chrono>
#include <cmath>
#include <thread>

extern "C" void solve(const float* input, float* output, int N) {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
