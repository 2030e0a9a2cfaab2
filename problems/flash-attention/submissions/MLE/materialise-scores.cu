// Textbook attention that materialises the scores: one N x N float matrix, allocated with cudaMalloc inside solve()
// and reused for every head: S = Q_h K_h^T / sqrt(d_k), a stable softmax of each row of S, then O_h = S V_h; freed at
// the end. Correct, and under the limit 4 * N * d_model * 4 bytes + 16 MiB on every functional test (n2048-dk128
// allocates 16 MiB of 24 MiB) and on the first performance case (N = 4096: 64 MiB of 80 MiB). Must get MLE on the
// second performance case: N = 16384 needs 1 GiB for one head's scores, the limit is 272 MiB. If cudaMalloc fails
// there (the judge may refuse the allocation), it returns without launching anything.
// hpcjudge-test: bench
#include <cmath>

// S[i][j] = scale * dot(Q row i, K row j) over the head's columns; one thread per element of S.
__global__ void scores(const float* __restrict__ Q, const float* __restrict__ K, float* __restrict__ S, int N,
                       int d_model, int dk, int col0, float scale) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= N || j >= N) return;
    const float* q = Q + (long long)i * d_model + col0;
    const float* k = K + (long long)j * d_model + col0;
    float s = 0.0f;
    for (int d = 0; d < dk; ++d) s += q[d] * k[d];
    S[(long long)i * N + j] = s * scale;
}

// Row softmax of S in place, one warp per row: max, sum of exp(s - max), then divide.
__global__ void softmax_rows(float* __restrict__ S, int N) {
    const int lane = threadIdx.x % 32;
    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (i >= N) return;
    float* row = S + (long long)i * N;
    float m = -INFINITY;
    for (int j = lane; j < N; j += 32) m = fmaxf(m, row[j]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float l = 0.0f;
    for (int j = lane; j < N; j += 32) l += expf(row[j] - m);
    for (int off = 16; off > 0; off >>= 1) l += __shfl_xor_sync(0xffffffffu, l, off);
    const float inv = 1.0f / l;
    for (int j = lane; j < N; j += 32) row[j] = expf(row[j] - m) * inv;
}

// O[i][col0 + d] = sum_j P[i][j] * V[j][col0 + d]; one thread per output element of the head.
__global__ void apply_v(const float* __restrict__ P, const float* __restrict__ V, float* __restrict__ O, int N,
                        int d_model, int dk, int col0) {
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= N || d >= dk) return;
    const float* p = P + (long long)i * N;
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) acc += p[j] * V[(long long)j * d_model + col0 + d];
    O[(long long)i * d_model + col0 + d] = acc;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
    if (N <= 0 || d_model <= 0 || h <= 0) return;
    const int dk = d_model / h;
    const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
    float* S = nullptr;
    if (cudaMalloc(&S, sizeof(float) * N * (size_t)N) != cudaSuccess) {  // the N x N scores of one head
        (void)cudaGetLastError();                                          // MLE already recorded by the judge
        return;
    }
    for (int head = 0; head < h; ++head) {
        const int col0 = head * dk;
        scores<<<dim3((N + 31) / 32, (N + 7) / 8), dim3(32, 8)>>>(Q, K, S, N, d_model, dk, col0, scale);
        softmax_rows<<<(N + 7) / 8, 256>>>(S, N);
        apply_v<<<dim3((dk + 31) / 32, (N + 7) / 8), dim3(32, 8)>>>(S, V, output, N, d_model, dk, col0);
    }
    cudaFree(S);
}
