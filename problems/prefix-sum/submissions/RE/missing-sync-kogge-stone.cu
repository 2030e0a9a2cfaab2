// Kogge-Stone with one barrier per step instead of two: thread t reads s[t - d] and writes s[t] with no
// __syncthreads() in between, so thread t - d (in another warp when d >= 32) may already have overwritten s[t - d]
// with this step's value when thread t reads it (a read-after-write hazard across warps). Must get RE: the problem
// runs compute-sanitizer's racecheck on the small tests, which reports the shared-memory hazard whatever the
// timing. Without compute-sanitizer the result depends on warp scheduling: usually WA, sometimes right.
// hpcjudge-test: message=race
#include <cuda_runtime.h>

constexpr int kBlock = 1024;
__global__ void scan_blocks(const int* in, int* out, int n, int* sums) {
    __shared__ int s[kBlock];
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kBlock + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < kBlock; d *= 2) {
        if (t >= d) s[t] += s[t - d];  // no barrier between the read of s[t - d] and this write
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
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
