// OpenMP over row blocks, blocked over n and j, contiguous vectorisable inner loop. Must get AC: correct for every shape including edges.
// hpcjudge-test: bench
#include <algorithm>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    constexpr int BI = 16, BN = 128, BJ = 256;
#pragma omp parallel for schedule(dynamic)
    for (int i0 = 0; i0 < M; i0 += BI) {
        const int i1 = std::min(i0 + BI, M);
        for (int i = i0; i < i1; ++i)
            for (int j = 0; j < K; ++j) C[(long)i * K + j] = 0.0f;
        for (int n0 = 0; n0 < N; n0 += BN) {
            const int n1 = std::min(n0 + BN, N);
            for (int j0 = 0; j0 < K; j0 += BJ) {
                const int j1 = std::min(j0 + BJ, K);
                for (int i = i0; i < i1; ++i) {
                    float* __restrict c = C + (long)i * K;
                    for (int n = n0; n < n1; ++n) {
                        const float a = A[(long)i * N + n];
                        const float* __restrict b = B + (long)n * K;
#pragma omp simd
                        for (int j = j0; j < j1; ++j) c[j] += a * b[j];
                    }
                }
            }
        }
    }
}
