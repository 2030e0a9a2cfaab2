// expect: AC
// The honest twin of the timing forgeries in this folder (their first line names it): the same softmax, in three
// OpenMP passes (maximum, sum of exponentials in double, scaled outputs), with nothing else going on. Each forgery's
// performance score is compared with this file's in one test run (tests/expect_no_gain.cmake).
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = -INFINITY;
#pragma omp parallel for reduction(max : m)
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    const float inv = static_cast<float>(1.0 / s);
#pragma omp parallel for
    for (int i = 0; i < N; ++i) output[i] = std::exp(input[i] - m) * inv;
}
