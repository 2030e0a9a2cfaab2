// The naive baseline (one thread per query row and head, stable online softmax) with one bug: the scores are
// Q_head K_head^T without the 1 / sqrt(d_k) scale, so every softmax is too sharp. Must get WA: the tests with one key
// (n1) or d_k = 1 (dk1-h64, h-eq-dmodel) are unaffected, but n2 (d_k = 2) and every later test with d_k > 1 are wrong.
#include <cmath>

constexpr int kRows = 32;  // query rows (threads) per block
constexpr int kDc = 64;    // output columns accumulated per pass

__global__ void attention_no_scale(const float* __restrict__ Q, const float* __restrict__ K,
                                   const float* __restrict__ V, float* __restrict__ O, int N, int d_model, int dk) {
    extern __shared__ float qs[];  // [dk][kRows]
    const int lane = threadIdx.x;
    const int row = blockIdx.x * kRows + lane;
    const long long col0 = (long long)blockIdx.y * dk;
    for (int d = 0; d < dk; ++d) qs[d * kRows + lane] = row < N ? Q[(long long)row * d_model + col0 + d] : 0.0f;
    if (row >= N) return;

    for (int c0 = 0; c0 < dk; c0 += kDc) {
        float acc[kDc];
#pragma unroll
        for (int u = 0; u < kDc; ++u) acc[u] = 0.0f;
        float m = -INFINITY, l = 0.0f;
        for (int j = 0; j < N; ++j) {
            const float* kr = K + (long long)j * d_model + col0;
            const float* vr = V + (long long)j * d_model + col0 + c0;
            float s = 0.0f;
            for (int d = 0; d < dk; ++d) s += qs[d * kRows + lane] * kr[d];
            // bug: s *= 1 / sqrt(d_k) is missing
            if (s > m) {
                const float alpha = expf(m - s);
                l = l * alpha + 1.0f;
#pragma unroll
                for (int u = 0; u < kDc; ++u)
                    if (c0 + u < dk) acc[u] = acc[u] * alpha + vr[u];
                m = s;
            } else {
                const float p = expf(s - m);
                l += p;
#pragma unroll
                for (int u = 0; u < kDc; ++u)
                    if (c0 + u < dk) acc[u] += p * vr[u];
            }
        }
        float* orow = O + (long long)row * d_model + col0 + c0;
#pragma unroll
        for (int u = 0; u < kDc; ++u)
            if (c0 + u < dk) orow[u] = acc[u] / l;
    }
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
    if (N <= 0 || d_model <= 0 || h <= 0) return;
    const int dk = d_model / h;
    static bool configured = false;
    if (!configured) {
        cudaFuncSetAttribute(attention_no_scale, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             sizeof(float) * kRows * 1024);
        configured = true;
    }
    const dim3 grid((N + kRows - 1) / kRows, h);
    attention_no_scale<<<grid, kRows, sizeof(float) * kRows * dk>>>(Q, K, V, output, N, d_model, dk);
}
