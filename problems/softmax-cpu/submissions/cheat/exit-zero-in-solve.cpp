// expect: RE
// Cheat on the protocol: computes the answer, then calls exit(0) inside solve(), hoping a clean exit reads as
// success. Must get RE: the runner's reply never comes, and the process ending during solve() is a run-time error
// whatever its exit status.
// hpcjudge-test: message=during solve()
#include <cmath>
#include <cstdlib>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
    std::exit(0);
}
