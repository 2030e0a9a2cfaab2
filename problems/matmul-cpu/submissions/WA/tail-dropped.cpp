// 4-wide unrolled j loop with no remainder loop: the last K % 4 columns are never written. Must get WA when K % 4 != 0 (NaN sentinel left).
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j + 4 <= K; j += 4) {  // bug: no tail loop for K % 4 columns
            float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
            for (int n = 0; n < N; ++n) {
                const float a = A[(long)i * N + n];
                const float* b = B + (long)n * K + j;
                s0 += a * b[0];
                s1 += a * b[1];
                s2 += a * b[2];
                s3 += a * b[3];
            }
            float* c = C + (long)i * K + j;
            c[0] = s0;
            c[1] = s1;
            c[2] = s2;
            c[3] = s3;
        }
}
