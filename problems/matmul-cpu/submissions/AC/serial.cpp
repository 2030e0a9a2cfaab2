// Serial matmul in i-n-j loop order with float accumulation into C. Must get AC: correct for every shape, FP32 error within tolerance.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i) {
        float* c = C + (long)i * K;
        for (int j = 0; j < K; ++j) c[j] = 0.0f;
        for (int n = 0; n < N; ++n) {
            const float a = A[(long)i * N + n];
            const float* b = B + (long)n * K;
            for (int j = 0; j < K; ++j) c[j] += a * b[j];
        }
    }
}
