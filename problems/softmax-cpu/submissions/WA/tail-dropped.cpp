// Correct softmax except the write loop stops at N - 1. Must get WA: the last output keeps the judge's NaN sentinel.
// hpcjudge-test: output-once=hint: NaN where a number is expected
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N - 1; ++i)  // bug: should be i < N
        output[i] = (float)(std::exp((double)input[i] - m) / s);
}
