// One block of 1024 threads: thread t sums a contiguous chunk of about N / 1024 elements sequentially in one float
// (10^5 additions in a row at N = 10^8), then the block adds the 1024 partial sums with warp shuffles and shared
// memory. Slow, and the order with the longest chains of additions; must get AC all the same.
#include <cuda_runtime.h>

constexpr int kThreads = 1024;

__global__ void reduce_chunks(const float* in, long long n, float* out) {
    __shared__ float warp_sums[32];
    const int t = threadIdx.x;
    const long long chunk = (n + kThreads - 1) / kThreads;
    const long long lo = t * chunk, hi = lo + chunk < n ? lo + chunk : n;
    float s = 0.0f;
    for (long long i = lo; i < hi; ++i) s += in[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((t & 31) == 0) warp_sums[t >> 5] = s;
    __syncthreads();
    if (t < 32) {
        s = warp_sums[t];
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (t == 0) out[0] = s;
    }
}

extern "C" void solve(const float* input, float* output, int N) { reduce_chunks<<<1, kThreads>>>(input, N, output); }
