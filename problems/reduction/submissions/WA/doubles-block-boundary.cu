// A tree per block where each block of 256 reads its elements [256 b, 256 b + 256] with the end included: the first
// element of every block after the first is added twice (once by its own block, once by the block before). Right
// while N <= 256; must get WA from N = 257 on.
#include <cuda_runtime.h>

constexpr int kBlock = 256;

__global__ void reduce_blocks(const float* in, int n, float* out) {
    __shared__ float s[kBlock + 1];
    const int t = threadIdx.x;
    const long long base = (long long)blockIdx.x * kBlock;
    s[t] = base + t < n ? in[base + t] : 0.0f;
    if (t == 0) s[kBlock] = base + kBlock < n ? in[base + kBlock] : 0.0f;  // one too many: the next block's first
    __syncthreads();
    if (t == 0) s[0] += s[kBlock];
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemsetAsync(output, 0, sizeof(float));
    reduce_blocks<<<(N + kBlock - 1) / kBlock, kBlock>>>(input, N, output);
}
