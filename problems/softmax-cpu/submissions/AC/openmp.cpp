// OpenMP softmax: parallel max and sum reductions, parallel write. Must get AC: stable (max subtracted) and correct.
// hpcjudge-test: bench
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
#pragma omp parallel for reduction(max : m)
    for (int i = 0; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    const double inv = 1.0 / s;
#pragma omp parallel for
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) * inv);
}
