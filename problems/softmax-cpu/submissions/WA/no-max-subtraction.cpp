// Softmax without subtracting the max (sum kept in double). Must get WA: expf overflows to inf for inputs in
// [80,100] (inf/inf = NaN) and underflows to 0 for [-1000,-900] (0/0 = NaN).
// hpcjudge-test: message=test all-equal-large
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp(input[i]);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i]) / s);
}
