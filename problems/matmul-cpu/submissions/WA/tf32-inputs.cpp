// Rounds every A and B element to TF32 (10 mantissa bits, round-to-nearest-even) before a float matmul. Must get WA: the tolerance 4*N*2^-24 rejects TF32's ~2^-11 relative error.
// hpcjudge-test: message=of C wrong
#include <cstdint>
#include <cstring>

static float to_tf32(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {  // leave inf/NaN alone
        u += 0x0fffu + ((u >> 13) & 1u);     // round to nearest, ties to even, at bit 13
        u &= ~0x1fffu;                       // drop the low 13 of 23 mantissa bits
    }
    std::memcpy(&x, &u, sizeof x);
    return x;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i) {
        float* c = C + (long)i * K;
        for (int j = 0; j < K; ++j) c[j] = 0.0f;
        for (int n = 0; n < N; ++n) {
            const float a = to_tf32(A[(long)i * N + n]);
            const float* b = B + (long)n * K;
            for (int j = 0; j < K; ++j) c[j] += a * to_tf32(b[j]);
        }
    }
}
