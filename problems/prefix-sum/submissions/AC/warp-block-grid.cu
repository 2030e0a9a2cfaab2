// The generic warp -> block -> grid scan of the course material. Must get AC.
//   - warp: an inclusive scan of 32 values with __shfl_up_sync (5 steps);
//   - block: 1024 threads, each warp scans its values, warp 0 scans the 32 warp totals, each warp adds the totals of
//     the warps before it;
//   - grid: a block scan per 1024 elements writes each block's total; the totals are scanned by the same function,
//     recursively, and a fix-up kernel adds them back. The workspace is sized by recursion level (one int per block
//     of every level) and allocated once per call.
#include <cuda_runtime.h>

constexpr int kBlock = 1024;
constexpr unsigned kFull = 0xffffffffu;

__device__ int warp_scan(int v) {
    const int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d *= 2) {
        const int u = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += u;
    }
    return v;
}

__device__ int block_scan(int v) {
    __shared__ int warp_totals[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_scan(v);
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) warp_totals[lane] = warp_scan(warp_totals[lane]);
    __syncthreads();
    return warp > 0 ? v + warp_totals[warp - 1] : v;
}

__global__ void scan_blocks(const int* in, int* out, int n, int* totals) {
    const long long i = (long long)blockIdx.x * kBlock + threadIdx.x;
    const int v = block_scan(i < n ? in[i] : 0);
    if (i < n) out[i] = v;
    if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = v;
}

__global__ void fix_up(int* x, int n, const int* scanned_totals) {
    const long long i = (long long)(blockIdx.x + 1) * kBlock + threadIdx.x;
    if (i < n) x[i] += scanned_totals[blockIdx.x];
}

int blocks_of(long long n) { return (int)((n + kBlock - 1) / kBlock); }

long long workspace_ints(int n) { return n <= kBlock ? 1 : blocks_of(n) + workspace_ints(blocks_of(n)); }

void grid_scan(const int* in, int* out, int n, int* work) {
    const int blocks = blocks_of(n);
    scan_blocks<<<blocks, kBlock>>>(in, out, n, work);
    if (blocks == 1) return;
    grid_scan(work, work, blocks, work + blocks);
    fix_up<<<blocks - 1, kBlock>>>(out, n, work);
}

extern "C" void solve(const int* input, int* output, int N) {
    int* work = nullptr;
    cudaMallocAsync(&work, sizeof(int) * workspace_ints(N), 0);
    grid_scan(input, output, N, work);
    cudaFreeAsync(work, 0);
}
