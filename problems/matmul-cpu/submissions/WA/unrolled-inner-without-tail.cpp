// Each C element a dot product unrolled by 4 over the inner dimension, rounded up to a multiple of 4 with no
// remainder loop: for N % 4 != 0 it reads up to three elements past each row of A (past A itself on the last row)
// and up to three rows past the end of B. Must get WA at the first such test (1x1x1): past a float input lies the
// judge's guard zone, a NaN, and every sum that reads it is NaN. (A guard that read as a tiny float, 0xA5 bytes,
// left every sum within the tolerance but where the reads ran on into C's sentinels: wide-3x5x1000.)
// hpcjudge-test: message=test 1x1x1:
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < K; ++j) {
            const float* a = A + (long)i * N;
            float s = 0.0f;
            for (int n = 0; n < N; n += 4)  // bug: n + 1 .. n + 3 may be N or more
                s += a[n] * B[(long)n * K + j] + a[n + 1] * B[(long)(n + 1) * K + j] +
                     a[n + 2] * B[(long)(n + 2) * K + j] + a[n + 3] * B[(long)(n + 3) * K + j];
            C[(long)i * K + j] = s;
        }
}
