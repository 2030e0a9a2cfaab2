// solve takes a non-const input. Must get CE: conflicts with the force-included header's extern "C" declaration.
// hpcjudge-test: message=does not match the expected signature: extern "C" void solve(const float* input, float* output, int N);
#include <cmath>

extern "C" void solve(float* input, float* output, int N) {
    for (int i = 0; i < N; ++i) output[i] = std::exp(input[i]);
}
