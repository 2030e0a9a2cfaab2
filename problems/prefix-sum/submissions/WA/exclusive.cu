// The blocks and the fix-up are right, but each block writes the exclusive scan (the sum of the elements before i,
// as Blelloch's down-sweep gives it) where the problem asks for the inclusive one. Must get WA: output[0] is 0
// instead of input[0].
#include <cuda_runtime.h>

constexpr int kBlock = 1024;
__global__ void scan_blocks(const int* in, int* out, int n, int* sums) {
    __shared__ int s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < kBlock; d *= 2) {
        const int add = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    if (i < n) out[i] = s[t] - in[i];  // exclusive: the element itself left out
    if (t == kBlock - 1) sums[blockIdx.x] = s[t];
}
__global__ void fix_up(int* x, int n, const int* scanned_sums) {
    const long long i = (long long)(blockIdx.x + 1) * kBlock + threadIdx.x;
    if (i < n) x[i] += scanned_sums[blockIdx.x];
}
void scan(const int* in, int* out, int n) {
    const int blocks = (n + kBlock - 1) / kBlock;
    int* sums = nullptr;
    cudaMalloc(&sums, sizeof(int) * blocks);
    scan_blocks<<<blocks, kBlock>>>(in, out, n, sums);
    if (blocks > 1) {
        scan(sums, sums, blocks);
        fix_up<<<blocks - 1, kBlock>>>(out, n, sums);
    }
    cudaFree(sums);
}

extern "C" void solve(const int* input, int* output, int N) { scan(input, output, N); }
