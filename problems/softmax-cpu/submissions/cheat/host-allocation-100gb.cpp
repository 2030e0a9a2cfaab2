// expect: MLE
// Cheat on the machine: asks for a 100 GB scratch vector. Must get MLE: a CPU submission's process may map its buffers
// twice over plus 4 GiB (RLIMIT_AS), so the allocation fails (std::bad_alloc) instead of swapping the judging machine
// to death.
// hpcjudge-test: message=ran out of memory
#include <algorithm>
#include <cmath>
#include <vector>

extern "C" void solve(const float* input, float* output, int N) {
    std::vector<double> scratch(size_t{100'000'000'000} / sizeof(double));  // 100 GB
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::max(m, input[i]);
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += scratch[i % scratch.size()] + std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
