// expect: NO-GAIN over honest-twin.cpp
// Forgery by taking the fast reference's answer: side by side, the buffers of every runner of a CPU grade lie on
// the same pages (one memfd that each runner maps: judge/isolation/session.h, SessionOptions::common_arena), and
// the fast reference is called on the same inputs right before this file in half the runs. Were its outputs still
// there when this call began, leaving them would be a right answer; one read of the inputs and outputs keeps the
// call above the hardware's floor (a call faster than the bytes it must move is FAIL). The judge loads each
// side's inputs and the outputs' sentinels (NaN) into those pages right before that side's call, and reads the
// call back right after: the outputs this file finds are always NaN, and it computes as its twin does.
#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    if (N > 0 && !std::isnan(output[0]) && !std::isnan(output[N - 1])) {  // someone's answer, left here
        float seen = 0;
#pragma omp parallel for reduction(+ : seen)
        for (int i = 0; i < N; ++i) seen += input[i] + output[i];
        if (seen != seen) output[0] = seen;  // never (no NaN left): keeps the loop
        return;
    }
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
