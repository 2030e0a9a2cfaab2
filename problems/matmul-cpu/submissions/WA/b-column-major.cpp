// Reads B[j*N + n] as if B were column-major. Must get WA: wrong wherever B is not symmetric (indices stay inside B's N*K floats, so no RE).
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < K; ++j) {
            float s = 0.0f;
            for (int n = 0; n < N; ++n) s += A[(long)i * N + n] * B[(long)j * N + n];  // bug: B is row-major
            C[(long)i * K + j] = s;
        }
}
