// Attention with a textbook softmax that does not subtract the row maximum: p_j = exp(s_j), output = sum p_j v_j /
// sum p_j, one thread per (query row, head). Must get WA, not RE: on the tests with inputs in [-2, 2] the scaled
// scores stay below ~10, exp() is far from overflow and the results are as accurate as a stable version's; on the
// large-scores test (inputs in [-10, 10], d_k = 16) scores reach several hundred, exp(s) is +inf in float beyond
// s = 88.7, and inf / inf writes NaN into those rows (a wrong value, not a crash).
#include <cmath>

constexpr int kRows = 32;  // query rows (threads) per block
constexpr int kDc = 64;    // output columns accumulated per pass

__global__ void attention_unstable(const float* __restrict__ Q, const float* __restrict__ K,
                                   const float* __restrict__ V, float* __restrict__ O, int N, int d_model, int dk,
                                   float scale) {
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
        float l = 0.0f;
        for (int j = 0; j < N; ++j) {
            const float* kr = K + (long long)j * d_model + col0;
            const float* vr = V + (long long)j * d_model + col0 + c0;
            float s = 0.0f;
            for (int d = 0; d < dk; ++d) s += qs[d * kRows + lane] * kr[d];
            const float p = expf(s * scale);  // bug: no max subtracted, overflows to +inf for s * scale > 88.7
            l += p;
#pragma unroll
            for (int u = 0; u < kDc; ++u)
                if (c0 + u < dk) acc[u] += p * vr[u];
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
        cudaFuncSetAttribute(attention_unstable, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             sizeof(float) * kRows * 1024);
        configured = true;
    }
    const dim3 grid((N + kRows - 1) / kRows, h);
    attention_unstable<<<grid, kRows, sizeof(float) * kRows * dk>>>(Q, K, V, output, N, d_model, dk,
                                                                    1.0f / std::sqrt(static_cast<float>(dk)));
}
