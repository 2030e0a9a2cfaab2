// solve returns int instead of void. Must get CE: conflicts with the force-included header's declaration.
// hpcjudge-test: message=does not match the expected signature: extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K);
extern "C" int solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < K; ++j) {
            float s = 0.0f;
            for (int n = 0; n < N; ++n) s += A[(long)i * N + n] * B[(long)n * K + j];
            C[(long)i * K + j] = s;
        }
    return 0;
}
