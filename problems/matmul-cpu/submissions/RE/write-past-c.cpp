// Correct matmul that also writes C[M*K + 7]. Must get RE: the write lands in the judge's guard zone after C.
// hpcjudge-test: message=past the end of C: C[
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
    C[(long)M * K + 7] = 0.0f;  // out of bounds: 28 bytes past the end
}
