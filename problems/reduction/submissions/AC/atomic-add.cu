// A shared-memory tree per block of 256, then one atomicAdd of each block's sum into output[0] (zeroed first): the
// blocks' sums arrive in whatever order the blocks finish, a different order on every run. Must get AC: every
// summation order passes.
#include <cuda_runtime.h>

constexpr int kBlock = 256;

__global__ void reduce_atomic(const float* in, int n, float* out) {
    __shared__ float s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemsetAsync(output, 0, sizeof(float));
    reduce_atomic<<<(N + kBlock - 1) / kBlock, kBlock>>>(input, N, output);
}
