// The course material's Kogge-Stone scan with two shared buffers (read one, write the other, swap), so each step
// needs one barrier instead of two; hierarchical, with the fix-up pass. Must get AC.
#include <cuda_runtime.h>

constexpr int kBlock = 512;

__global__ void kogge_stone(const int* in, int* out, int n, int* sums) {
    __shared__ int buf[2][kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    int src = 0;
    buf[src][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < kBlock; d *= 2) {
        buf[1 - src][t] = t >= d ? buf[src][t] + buf[src][t - d] : buf[src][t];
        src = 1 - src;
        __syncthreads();
    }
    if (i < n) out[i] = buf[src][t];
    if (t == kBlock - 1) sums[blockIdx.x] = buf[src][t];
}

__global__ void fix_up(int* x, int n, const int* scanned_sums) {
    const long long i = (long long)(blockIdx.x + 1) * kBlock + threadIdx.x;
    if (i < n) x[i] += scanned_sums[blockIdx.x];
}

void scan(const int* in, int* out, int n) {
    const int blocks = (n + kBlock - 1) / kBlock;
    int* sums = nullptr;
    cudaMalloc(&sums, sizeof(int) * blocks);
    kogge_stone<<<blocks, kBlock>>>(in, out, n, sums);
    if (blocks > 1) {
        scan(sums, sums, blocks);
        fix_up<<<blocks - 1, kBlock>>>(out, n, sums);
    }
    cudaFree(sums);
}

extern "C" void solve(const int* input, int* output, int N) { scan(input, output, N); }
