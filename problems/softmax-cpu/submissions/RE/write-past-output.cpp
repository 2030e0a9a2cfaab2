// Correct softmax that also writes output[N + 100]. Must get RE: the write lands in the judge's 4 KiB guard zone after the output.
// hpcjudge-test: message=past the end of output: output[
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
    output[N + 100] = 0.0f;  // out of bounds: 400 bytes past the end
}
