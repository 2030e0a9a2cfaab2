// One block of 1024 threads in which thread t handles only element t: the max, the sum and the write cover
// elements 0..1023 only. Must get WA: correct for N <= 1024; for larger N the sum misses terms and outputs from
// index 1024 on keep the NaN sentinel.
#include <cmath>

constexpr int kThreads = 1024;

__global__ void softmax_first_block(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float smax[kThreads];
    __shared__ float ssum[kThreads];
    const int t = threadIdx.x;
    const bool mine = t < N;  // bug: no loop over the rest of the vector
    const float v = mine ? x[t] : -INFINITY;
    smax[t] = v;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) smax[t] = fmaxf(smax[t], smax[t + s]);
        __syncthreads();
    }
    const float m = smax[0];
    const float e = mine ? expf(v - m) : 0.0f;
    ssum[t] = e;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) ssum[t] += ssum[t + s];
        __syncthreads();
    }
    if (mine) y[t] = e / ssum[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    softmax_first_block<<<1, kThreads>>>(input, output, N);
}
