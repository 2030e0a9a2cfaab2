// softmax-gpu baseline reference: one block of 1024 threads does the max, the sum (double partials, shared-memory
// tree reductions) and the write, each a strided loop over all N. Must get AC; sets the slow end of the score scale.
#include <cmath>

constexpr int kThreads = 1024;

__global__ void softmax_one_block(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float smax[kThreads];
    __shared__ double ssum[kThreads];
    const int t = threadIdx.x;

    // 1. max
    float m = -INFINITY;
    for (long long i = t; i < N; i += kThreads) m = fmaxf(m, x[i]);
    smax[t] = m;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) smax[t] = fmaxf(smax[t], smax[t + s]);
        __syncthreads();
    }
    m = smax[0];

    // 2. sum of exp(x - max): float terms, double accumulation
    double sum = 0.0;
    for (long long i = t; i < N; i += kThreads) sum += (double)expf(x[i] - m);
    ssum[t] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) ssum[t] += ssum[t + s];
        __syncthreads();
    }
    const float inv = (float)(1.0 / ssum[0]);

    // 3. write
    for (long long i = t; i < N; i += kThreads) y[i] = expf(x[i] - m) * inv;
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    softmax_one_block<<<1, kThreads>>>(input, output, N);
}
