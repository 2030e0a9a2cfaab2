// matmul-cpu baseline reference: the beginner's OpenMP version (parallel rows, naive i-j-n loop, float accumulator). Must get AC; sets the slow end of the score scale.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
#pragma omp parallel for
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < K; ++j) {
            float s = 0.0f;
            for (int n = 0; n < N; ++n) s += A[(long)i * N + n] * B[(long)n * K + j];
            C[(long)i * K + j] = s;
        }
}
