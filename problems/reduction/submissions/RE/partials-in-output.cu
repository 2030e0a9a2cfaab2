// Uses output as the scratch array of block sums: block b writes its sum to output[b], then a second kernel adds
// output[0 .. blocks) into output[0]. output holds one float, so from N = 257 on (two blocks) the partials land past
// its end. Must get RE: the judge's guard zone after output catches the write.
// hpcjudge-test: message=write past the end of output
#include <cuda_runtime.h>

constexpr int kBlock = 256;

__global__ void block_sums(const float* in, int n, float* partials) {
    __shared__ float s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partials[blockIdx.x] = s[0];
}

__global__ void add_partials(float* out, int blocks) {
    float s = 0.0f;
    for (int b = 0; b < blocks; ++b) s += out[b];
    out[0] = s;
}

extern "C" void solve(const float* input, float* output, int N) {
    const int blocks = (N + kBlock - 1) / kBlock;
    block_sums<<<blocks, kBlock>>>(input, N, output);
    add_partials<<<1, 1>>>(output, blocks);
}
