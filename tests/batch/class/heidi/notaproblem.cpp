// A correct softmax saved under a name that is no problem's slug. Must be listed and skipped with a warning, never graded.
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double sum = 0.0;
    for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i] - m));
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i] - m)) / sum);
}
