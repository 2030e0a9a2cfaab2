// expect: WA
// Cheat: computes the softmax once, keeps a copy of that output in device memory of its own, and from then on copies
// the kept result into output without looking at the input. Must get WA: the next call has other inputs (and other
// sizes), and the last test runs again with new inputs in the same buffers, so the old answer is wrong.
#include <cuda_runtime.h>

#include <cmath>

__global__ void softmax_one_block(const float* x, float* y, int n) {
    __shared__ float red[256];
    float m = -INFINITY;
    for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, x[i]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) sum += expf(x[i] - m);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    sum = red[0];
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = expf(x[i] - m) / sum;
}

extern "C" void solve(const float* input, float* output, int N) {
    static float* kept = nullptr;
    static int kept_n = 0;
    if (!kept) {
        softmax_one_block<<<1, 256>>>(input, output, N);
        cudaMalloc(&kept, sizeof(float) * N);
        cudaMemcpy(kept, output, sizeof(float) * N, cudaMemcpyDeviceToDevice);
        kept_n = N;
        return;
    }
    cudaMemcpy(output, kept, sizeof(float) * (N < kept_n ? N : kept_n), cudaMemcpyDeviceToDevice);
}
