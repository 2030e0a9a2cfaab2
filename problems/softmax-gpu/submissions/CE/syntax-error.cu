// A missing semicolon in the kernel. Must get CE: the file does not parse.
// hpcjudge-test: message= error: 
#include <cmath>

__global__ void softmax_one_block(const float* x, float* y, int N) {
    __shared__ float red[256];
    const int t = threadIdx.x;
    float m = -INFINITY
    for (int i = t; i < N; i += 256) m = fmaxf(m, x[i]);
    red[t] = m;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    for (int i = t; i < N; i += 256) y[i] = expf(x[i] - m);
}

extern "C" void solve(const float* input, float* output, int N) {
    softmax_one_block<<<1, 256>>>(input, output, N);
}
