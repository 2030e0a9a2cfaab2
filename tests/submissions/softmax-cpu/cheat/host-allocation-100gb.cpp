// Asks for a 64 GiB scratch vector. Must get MLE: a CPU submission's process may map its buffers twice over plus
// 4 GiB, so the allocation fails (std::bad_alloc) instead of swapping the judging machine to death.
// hpcjudge-test: message=ran out of memory
#include <algorithm>
#include <cmath>
#include <vector>

extern "C" void solve(const float* input, float* output, int N) {
    std::vector<double> scratch(size_t{64} << 27);  // 64 GiB of doubles
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::max(m, input[i]);
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += scratch[i % scratch.size()] + std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
