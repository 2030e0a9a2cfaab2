// reduction baseline reference: a simple tree reduction, as a first version looks. Must get AC; sets the slow end
// of the score scale.
//   - reduce_blocks: each block of 256 threads loads 256 elements (one per thread, 0 past the end) into shared
//     memory and halves them in a tree (s[t] += s[t + stride], a barrier per level); thread 0 writes the block sum.
//   - The block sums are reduced by the same kernel, level after level, until one value is left (10^8 elements:
//     390,625 sums, then 1,526, then 6, then 1), which the last level writes to output[0].
// Scratch: the sums of two levels at a time, in a __device__ array.
#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kMaxSums = 100000000 / kBlock + 1;

__device__ float g_sums[2][kMaxSums];

__global__ void reduce_blocks(const float* in, int n, float* sums) {
    __shared__ float s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = s[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    float* sums = nullptr;
    cudaGetSymbolAddress(reinterpret_cast<void**>(&sums), g_sums);
    const float* in = input;
    int n = N, level = 0;
    while (true) {
        const int blocks = (n + kBlock - 1) / kBlock;
        float* out = blocks == 1 ? output : sums + (size_t)(level % 2) * kMaxSums;
        reduce_blocks<<<blocks, kBlock>>>(in, n, out);
        if (blocks == 1) return;
        in = out;
        n = blocks;
        ++level;
    }
}
