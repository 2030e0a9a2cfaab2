// expect: RE
// Cheat: solve() computes the maximum and starts a detached thread that does the rest (the exponentials, the sum,
// the outputs) and returns at once, hoping the timer stops before the work is done and the judge reads the outputs
// after it is. Stopped by the runner's look at its other threads after every call (runner/deferred_work.h): a
// thread still using the CPU after solve() returns is RE.
// hpcjudge-test: message=still working after solve() returned
#include <cmath>
#include <thread>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    std::thread([=] {
        // Slow on purpose, so the judge would check before it is done.
        double s = 0;
        for (int rep = 0; rep < 20; ++rep)
            for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m) / 20;
        for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
    }).detach();
}
