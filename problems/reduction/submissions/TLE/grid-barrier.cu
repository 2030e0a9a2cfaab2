// A software grid barrier: every block writes its sum, counts itself in, and spins until all gridDim.x blocks have
// arrived; then block 0 adds the sums. With one block per 256 elements the grid is far larger than what fits on
// the GPU at once (10^6 elements: 4,096 blocks), so the resident blocks spin forever waiting for blocks that can
// never start. Must get TLE.
// hpcjudge-test: message=did not return within
// Under CPU emulation, where blocks run one after another, or as many side by side as there are CPUs, the first
// grid with more blocks than that waits for ever: the TLE names the kernel, its first block running and the threads
// that had not ended, how many and where (which grid that is depends on the machine's CPUs).
// hpcjudge-test: emulated-message=kernel reduce_barrier (grid (
// hpcjudge-test: emulated-message=threads) was still running in block (0,0,0), block 1 of
// hpcjudge-test: emulated-message=; 256 of its 256 threads had not ended: (0,0,0) running, (1,0,0) at __syncthreads() (line
#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 100000000 / kBlock + 1;

__device__ float g_sums[kMaxBlocks];
__device__ unsigned g_arrived;

__global__ void reduce_barrier(const float* in, int n, float* out) {
    __shared__ float s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        g_sums[blockIdx.x] = s[0];
        __threadfence();
        atomicAdd(&g_arrived, 1u);
        while (*(volatile unsigned*)&g_arrived < gridDim.x) {
        }
    }
    __syncthreads();
    if (blockIdx.x == 0 && t == 0) {
        float total = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) total += ((volatile float*)g_sums)[b];
        out[0] = total;
        g_arrived = 0;  // never reached once the grid is too large
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    reduce_barrier<<<(N + kBlock - 1) / kBlock, kBlock>>>(input, N, output);
}
