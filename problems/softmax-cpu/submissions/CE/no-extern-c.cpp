// Defines a typo'd `slove` (no extern "C") and no `solve`. Must get CE: the link fails with "undefined reference to `solve'" (-Wl,-z,defs).
// hpcjudge-test: message=no extern "C" solve() is defined
#include <cmath>

void slove(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
}
