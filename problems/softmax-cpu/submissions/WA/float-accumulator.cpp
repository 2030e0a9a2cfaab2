// Subtracts the max, but sums a million terms in one float accumulator. Must get WA: once the sum is large the
// small terms are rounded away, a systematic loss of about 1.5e-3 relative at N = 2^20 (rtol is 1e-4).
// hpcjudge-test: message=test pow2-1048576
#include <algorithm>
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::max(m, input[i]);
    float s = 0.0f;
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = std::exp(input[i] - m) / s;
}
