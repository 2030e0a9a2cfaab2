// The baseline's algorithm with a scan that stops at the block level: each block of 1024 flags is scanned in shared
// memory, but the total of the blocks before it is never added (the cross-block fix-up is missing). Must get WA:
// correct while raw_count <= 1024 (one block: the tests empty, one, two and three pass), then run indices restart at
// every block, so runs overwrite each other and the count is that of the last block only (all-equal: 0 runs). Every
// index stays below the true one, so nothing is written outside the outputs (no RE).
#include <cuda_runtime.h>

#include <cstdint>

constexpr uint32_t kScanBlock = 1024;
constexpr uint32_t kThreads = 256;

__global__ void mark_starts(const char* raw, uint32_t n, uint32_t* flags) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = (i == 0 || raw[i] != raw[i - 1]) ? 1 : 0;
}

// Inclusive scan of each block of kScanBlock elements of x, in place (Hillis-Steele).
__global__ void scan_blocks(uint32_t* x, uint32_t n) {
    __shared__ uint32_t s[kScanBlock];
    const uint32_t t = threadIdx.x, i = blockIdx.x * kScanBlock + t;
    s[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (uint32_t d = 1; d < kScanBlock; d *= 2) {
        const uint32_t add = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    if (i < n) x[i] = s[t];
    // bug: the block's total is not kept, and no later pass adds the preceding blocks' totals
}

__global__ void scatter_starts(const char* raw, uint32_t n, const uint32_t* scanned, char* data, uint32_t* starts) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || !(i == 0 || raw[i] != raw[i - 1])) return;
    const uint32_t r = scanned[i] - 1;
    data[r] = raw[i];
    starts[r] = i;
}

__global__ void run_lengths(const uint32_t* starts, uint32_t runs, uint32_t n, uint32_t* lengths) {
    const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < runs) lengths[r] = (r + 1 < runs ? starts[r + 1] : n) - starts[r];
}

extern "C" size_t workspace_size(uint32_t raw_count) { return sizeof(uint32_t) * 2 * (size_t)raw_count; }

extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths) {
    const uint32_t n = raw_count;
    if (n == 0) return 0;
    uint32_t* flags = static_cast<uint32_t*>(workspace);
    uint32_t* starts = flags + n;
    const uint32_t grid = (n + kThreads - 1) / kThreads;
    mark_starts<<<grid, kThreads>>>(raw, n, flags);
    scan_blocks<<<(n + kScanBlock - 1) / kScanBlock, kScanBlock>>>(flags, n);
    scatter_starts<<<grid, kThreads>>>(raw, n, flags, compressed_data, starts);
    uint32_t runs = 0;
    cudaMemcpy(&runs, flags + n - 1, sizeof runs, cudaMemcpyDeviceToHost);
    if (runs > 0) run_lengths<<<(runs + kThreads - 1) / kThreads, kThreads>>>(starts, runs, n, compressed_lengths);
    return runs;
}
