// The normaliser's sum under `#pragma omp parallel reduction(+ : s)` without `for`: each of the two threads sums
// every element, so the normaliser is twice the sum and every output half what it should be. Must get WA; every
// test with two or more wrong elements hints at the common factor, and the judge prints that same hint once.
// hpcjudge-test: output-once=hint: every wrong element is about 0.5 times the expected one
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    for (int i = 0; i < N; ++i)  // bug: no `omp for`, so every thread runs the whole loop
        s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
}
