// Asks for 300 KB of dynamic shared memory per block (more than any GPU offers: 227 KB on Hopper, and 48 KB without
// opting in) and does not check the launch. Must get RE: the launch fails, nothing runs, and the judge's
// cudaGetLastError() after solve reports the CUDA error.
// hpcjudge-test: message=cuda
#include <cmath>

constexpr int kThreads = 1024;

__global__ void softmax_staged(const float* __restrict__ x, float* __restrict__ y, int N) {
    extern __shared__ float stage[];  // meant to hold a chunk of x
    __shared__ float red[kThreads];
    const int t = threadIdx.x;
    float m = -INFINITY;
    for (long long i = t; i < N; i += kThreads) m = fmaxf(m, x[i]);
    red[t] = m;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (long long i = t; i < N; i += kThreads) sum += expf(x[i] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    stage[t] = red[0];
    for (long long i = t; i < N; i += kThreads) y[i] = expf(x[i] - m) / stage[t];
}

extern "C" void solve(const float* input, float* output, int N) {
    const size_t shmem = 300 * 1024;  // bug: over the per-block limit; the launch fails
    softmax_staged<<<1, kThreads, shmem>>>(input, output, N);
}
