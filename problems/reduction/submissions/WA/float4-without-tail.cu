// The two-pass warp-shuffle reduction over float4 vectors: ceil(N / 4) of them, with no scalar tail, so for N not a
// multiple of 4 the last vector reads up to three floats past the input. Must get WA (N = 1, 2, 3, 5, ...): those
// floats are the judge's guard zone, a NaN after a float input, and the sum is NaN. Under CPU emulation it is RE: the
// emulator faults the read itself (tests/CMakeLists.txt, HPCJUDGE_EMULATION_EXCEPTIONS).
// hpcjudge-test: message=test n1:
// hpcjudge-test: message-matches=got -?nan
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

__global__ void partial_sums(const float4* in, long long vectors) {
    float s = 0.0f;
    for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < vectors; i += (long long)gridDim.x * kThreads) {
        const float4 v = in[i];  // bug: the last vector runs past the input when N % 4 != 0
        s += (v.x + v.y) + (v.z + v.w);
    }
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
    const long long vectors = ((long long)N + 3) / 4;  // ceil(N / 4): the whole input, and up to 3 floats more
    long long blocks = (vectors + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    partial_sums<<<(int)blocks, kThreads>>>(reinterpret_cast<const float4*>(input), vectors);
    final_sum<<<1, kThreads>>>((int)blocks, output);
}
