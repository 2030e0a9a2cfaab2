// A missing semicolon. Must get CE: the file does not parse.
// hpcjudge-test: message= error: 
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0]
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
}
