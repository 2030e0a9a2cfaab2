// Stable softmax that divides by the sum of all but the first element. Must get WA: every output is too large (inf/NaN at N = 1).
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 1; i < N; ++i)  // bug: skips input[0] in the normaliser
        s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
}
