// expect: AC
// Cheat on the judge: a correct softmax that first prints 100 MB to stdout and some to stderr, to stall or flood the
// judge. Must get AC: the judge drains and truncates the captured output (64 KiB kept), unaffected.
// hpcjudge-test: truncated-output
#include <cmath>
#include <cstdio>

extern "C" void solve(const float* input, float* output, int N) {
    static char line[1025];
    for (int i = 0; i < 1024; ++i) line[i] = 'a' + i % 26;
    line[1024] = '\n';
    static bool flooded = false;  // on the first call only: 100 MB per call would just make the test slow
    for (int i = 0; !flooded && i < 100 * 1000 * 1000 / 1025; ++i) std::fwrite(line, 1, sizeof line, stdout);
    flooded = true;
    for (int i = 0; i < 64; ++i) std::fprintf(stderr, "debug: N = %d, line %d\n", N, i);
    std::fflush(stdout);
    std::fflush(stderr);

    float m = input[0];
    for (int i = 1; i < N; ++i)
        if (input[i] > m) m = input[i];
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp((double)input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = (float)(std::exp((double)input[i] - m) / s);
}
