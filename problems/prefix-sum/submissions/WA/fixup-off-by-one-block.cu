// The fix-up adds to block b the scanned total of blocks 0 .. b (its own included) instead of 0 .. b-1: an
// off-by-one at every block boundary. Right up to N = 1024; must get WA from N = 1025 on.
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
    if (i < n) out[i] = s[t];
    if (t == kBlock - 1) sums[blockIdx.x] = s[t];
}
__global__ void fix_up(int* x, int n, const int* scanned_sums) {
    const long long i = (long long)(blockIdx.x + 1) * kBlock + threadIdx.x;
    if (i < n) x[i] += scanned_sums[blockIdx.x + 1];  // should be blockIdx.x: the blocks before b+1
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
