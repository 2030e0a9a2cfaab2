// Correct softmax output, but const_casts the input and changes input[0]. Must get RE: inputs are checked unchanged after solve.
// hpcjudge-test: message=input modified: input[0]
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
    const_cast<float*>(input)[0] += 1.0f;  // scratch use of an input buffer
}
