// The two-pass warp-shuffle reduction with the grid-stride loop bound written i < n - 1: the last element is never
// added. Must get WA at every size (N = 1: 0 instead of input[0]); the exact tests move by at least 1/64.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kBlocks = 1024;

__device__ float g_partials[kBlocks];

__device__ float block_sum(float v) {
    __shared__ float warp_sums[kThreads / 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
    __syncthreads();
    v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void partial_sums(const float* in, long long n) {
    float s = 0.0f;
    for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < n - 1; i += (long long)gridDim.x * kThreads)
        s += in[i];
    s = block_sum(s);
    if (threadIdx.x == 0) g_partials[blockIdx.x] = s;
}

__global__ void final_sum(int blocks, float* out) {
    float s = 0.0f;
    for (int b = threadIdx.x; b < blocks; b += kThreads) s += g_partials[b];
    s = block_sum(s);
    if (threadIdx.x == 0) out[0] = s;
}

extern "C" void solve(const float* input, float* output, int N) {
    long long blocks = ((long long)N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    partial_sums<<<(int)blocks, kThreads>>>(input, N);
    final_sum<<<1, kThreads>>>((int)blocks, output);
}
