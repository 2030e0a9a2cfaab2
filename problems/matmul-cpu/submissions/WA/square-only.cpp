// Uses N for every dimension (sizes and strides), so it is right only when M == N == K. Must get WA on non-square shapes.
#include <algorithm>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    // Written for square N x N matrices, in the cache-friendly i-n-j order so the square
    // 1024^3 case stays fast (a slow loop would get TLE, which outranks WA). Loop bounds and
    // indices are clamped to the real buffers so the bug shows as wrong values (WA), not as an
    // out-of-bounds access (RE).
    const long sizeB = (long)N * K, sizeC = (long)M * K;
    const int rows = std::min(M, N), cols = std::min(N, K);
    for (int i = 0; i < rows; ++i) {
        const long c0 = (long)i * N;  // bug: C's row stride is K
        const int w = (int)std::min<long>(cols, sizeC - c0);
        if (w <= 0) break;
        for (int j = 0; j < w; ++j) C[c0 + j] = 0.0f;
        for (int n = 0; n < N; ++n) {
            const long b0 = (long)n * N;  // bug: B's row stride is K
            const int wb = (int)std::min<long>(w, sizeB - b0);
            const float a = A[(long)i * N + n];
            for (int j = 0; j < wb; ++j) C[c0 + j] += a * B[b0 + j];
        }
    }
}
