// reduction fast reference: one kernel at close to copy bandwidth. Must get AC; sets the fast end of the score
// scale.
//   - A grid of 4 blocks of 512 threads per SM; every thread walks the array with a grid-stride loop of float4
//     loads, four of them in flight per step (memory-level parallelism) into four float accumulators.
//   - The block reduces its threads' sums with warp shuffles (__shfl_xor_sync) and one more warp over the warp
//     sums, and writes one partial per block.
//   - The last block to finish (an atomic counter after a __threadfence) adds the partials in a fixed order and
//     writes output[0], then resets the counter for the next call: no second launch, no memset.
//   - Scalar code for N % 4 and for an input not 16-byte aligned.
// Every step is a float addition of sums over index sets fixed by N and the grid, so the result is one of the
// orders the tolerance admits.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kMaxBlocks = 4096;
constexpr unsigned kFull = 0xffffffffu;

__device__ float g_partial[kMaxBlocks];
__device__ unsigned g_done;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFull, v, o);
    return v;
}

// The block's sum, valid in thread 0. All threads call it.
__device__ float block_sum(float v) {
    __shared__ float s[kThreads / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) s[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < kThreads / 32 ? s[lane] : 0.0f);
    return v;
}

__global__ void __launch_bounds__(kThreads) reduce(const float* __restrict__ x, long long n, bool aligned,
                                                   float* __restrict__ output) {
    const long long tid = (long long)blockIdx.x * kThreads + threadIdx.x, threads = (long long)gridDim.x * kThreads;
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    long long done = 0;  // elements covered by the float4 loop
    if (aligned) {
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const long long n4 = n / 4;
        long long i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 v0 = __ldg(x4 + i), v1 = __ldg(x4 + i + threads), v2 = __ldg(x4 + i + 2 * threads),
                         v3 = __ldg(x4 + i + 3 * threads);
            a0 += (v0.x + v0.y) + (v0.z + v0.w);
            a1 += (v1.x + v1.y) + (v1.z + v1.w);
            a2 += (v2.x + v2.y) + (v2.z + v2.w);
            a3 += (v3.x + v3.y) + (v3.z + v3.w);
        }
        for (; i < n4; i += threads) {
            const float4 v = __ldg(x4 + i);
            a0 += (v.x + v.y) + (v.z + v.w);
        }
        done = n4 * 4;
    }
    for (long long i = done + tid; i < n; i += threads) a1 += __ldg(x + i);
    const float s = block_sum((a0 + a1) + (a2 + a3));

    __shared__ bool last;
    if (threadIdx.x == 0) {
        g_partial[blockIdx.x] = s;
        __threadfence();  // the partial is visible before the counter says so
        last = atomicAdd(&g_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    float v = 0;
    for (int b = threadIdx.x; b < (int)gridDim.x; b += kThreads) v += ((volatile float*)g_partial)[b];
    v = block_sum(v);
    if (threadIdx.x == 0) {
        output[0] = v;
        g_done = 0;  // ready for the next call
    }
}

int grid_size() {
    static int blocks = 0;
    if (!blocks) {
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        blocks = sms * kBlocksPerSm;
        if (blocks < 1) blocks = 1;
        if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    }
    return blocks;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    // Small inputs: fewer blocks, so that no block is idle (each still gets at least one float4 per thread).
    long long blocks = ((long long)N + 4LL * kThreads - 1) / (4LL * kThreads);
    if (blocks > grid_size()) blocks = grid_size();
    const bool aligned = reinterpret_cast<uintptr_t>(input) % 16 == 0;
    reduce<<<(int)blocks, kThreads>>>(input, N, aligned, output);
}
