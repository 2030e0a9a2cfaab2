// The course material's Brent-Kung scan, made hierarchical. Must get AC.
//   Each block of 512 threads scans 1024 elements (two per thread) in shared memory: an up-sweep (a reduction tree,
//   n - 1 additions) then a down-sweep that spreads the partial sums back (n - 1 - log2 n more): 2(n - 1) additions
//   in all, against Kogge-Stone's n log2 n. The block totals are scanned the same way, recursively, and added back
//   (the fix-up). Scratch per recursion level, from cudaMallocAsync, freed before returning.
#include <cuda_runtime.h>

constexpr int kSection = 1024;  // elements per block
constexpr int kThreads = kSection / 2;

__global__ void brent_kung(const int* in, int* out, int n, int* sums) {
    __shared__ int s[kSection];
    const int t = threadIdx.x;
    const long long base = (long long)blockIdx.x * kSection;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + kThreads] = base + t + kThreads < n ? in[base + t + kThreads] : 0;
    for (int stride = 1; stride < kSection; stride *= 2) {  // up-sweep
        __syncthreads();
        const int i = (t + 1) * 2 * stride - 1;
        if (i < kSection) s[i] += s[i - stride];
    }
    for (int stride = kSection / 4; stride > 0; stride /= 2) {  // down-sweep
        __syncthreads();
        const int i = (t + 1) * 2 * stride - 1;
        if (i + stride < kSection) s[i + stride] += s[i];
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + kThreads < n) out[base + t + kThreads] = s[t + kThreads];
    if (t == 0) sums[blockIdx.x] = s[kSection - 1];
}

__global__ void fix_up(int* x, int n, const int* scanned_sums) {
    const long long base = (long long)(blockIdx.x + 1) * kSection;
    const int add = scanned_sums[blockIdx.x];
    for (int k = threadIdx.x; k < kSection; k += blockDim.x)
        if (base + k < n) x[base + k] += add;
}

void scan(const int* in, int* out, int n) {
    const int blocks = (n + kSection - 1) / kSection;
    int* sums = nullptr;
    cudaMallocAsync(&sums, sizeof(int) * blocks, 0);
    brent_kung<<<blocks, kThreads>>>(in, out, n, sums);
    if (blocks > 1) {
        scan(sums, sums, blocks);
        fix_up<<<blocks - 1, 256>>>(out, n, sums);
    }
    cudaFreeAsync(sums, 0);
}

extern "C" void solve(const int* input, int* output, int N) { scan(input, output, N); }
