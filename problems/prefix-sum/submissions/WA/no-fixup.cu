// Kogge-Stone per block of 1024, but without the fix-up pass: every block scans its own elements and nobody adds
// the totals of the blocks before it. Right up to N = 1024; must get WA from N = 1025 on.
#include <cuda_runtime.h>

constexpr int kBlock = 1024;
__global__ void scan_blocks(const int* in, int* out, int n) {
    __shared__ int s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < kBlock; d *= 2) {
        const int add = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}

extern "C" void solve(const int* input, int* output, int N) {
    scan_blocks<<<(N + kBlock - 1) / kBlock, kBlock>>>(input, output, N);
}
