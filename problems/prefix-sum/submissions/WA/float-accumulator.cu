// The material's Kogge-Stone scan with a float accumulator (shared memory and block totals in float): exact while
// every prefix stays below 2^24, rounded beyond. Must get WA on the sums-beyond-2^24 test (and the large ones).
#include <cuda_runtime.h>

constexpr int kBlock = 1024;

__global__ void scan_blocks(const int* in, int* out, int n, float* sums, const float* offsets) {
    __shared__ float s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? (float)in[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < kBlock; d *= 2) {
        const float add = t >= d ? s[t - d] : 0.0f;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    if (i < n && out) out[i] = (int)(s[t] + (blockIdx.x > 0 ? offsets[blockIdx.x - 1] : 0.0f));
    if (t == kBlock - 1) sums[blockIdx.x] = s[t];
}

// Inclusive scan of n floats in place, on one block at a time (the totals of 2^28 ints are 2^18 floats).
__global__ void scan_floats(float* x, int n) {
    __shared__ float carry;
    if (threadIdx.x == 0) carry = 0.0f;
    __syncthreads();
    for (int start = 0; start < n; start += kBlock) {
        __shared__ float s[kBlock];
        const int t = threadIdx.x;
        s[t] = start + t < n ? x[start + t] : 0.0f;
        __syncthreads();
        for (int d = 1; d < kBlock; d *= 2) {
            const float add = t >= d ? s[t - d] : 0.0f;
            __syncthreads();
            s[t] += add;
            __syncthreads();
        }
        if (start + t < n) x[start + t] = s[t] + carry;
        __syncthreads();
        if (t == kBlock - 1) carry += s[t];
        __syncthreads();
    }
}

extern "C" void solve(const int* input, int* output, int N) {
    const int blocks = (N + kBlock - 1) / kBlock;
    float* sums = nullptr;
    cudaMalloc(&sums, sizeof(float) * 2 * blocks);  // the totals, and room for the second pass's
    scan_blocks<<<blocks, kBlock>>>(input, nullptr, N, sums, sums);  // the block totals
    scan_floats<<<1, kBlock>>>(sums, blocks);
    scan_blocks<<<blocks, kBlock>>>(input, output, N, sums + blocks, sums);  // again, with the offsets (totals unused)
    cudaFree(sums);
}
