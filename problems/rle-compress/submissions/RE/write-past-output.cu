// The baseline, plus a 0 written after the last run "to mark the end": compressed_lengths[R] = 0. That is inside the
// buffer while R < raw_count, but when every run has length 1 (R == raw_count: the test one, raw_count = 1) it lands
// 4 bytes past the end of compressed_lengths. Must get RE: the write hits the judge's 4 KiB guard zone after the
// buffer (inside its allocation, so no CUDA fault: only the guard check catches it).
// hpcjudge-test: message=write past the end of
#include <cuda_runtime.h>

#include <cstdint>

constexpr uint32_t kScanBlock = 1024;
constexpr uint32_t kThreads = 256;

__global__ void mark_starts(const char* raw, uint32_t n, uint32_t* flags) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = (i == 0 || raw[i] != raw[i - 1]) ? 1 : 0;
}

__global__ void scan_blocks(uint32_t* x, uint32_t n, uint32_t* sums) {
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
    if (t == kScanBlock - 1) sums[blockIdx.x] = s[t];
}

__global__ void add_block_prefix(uint32_t* x, uint32_t n, const uint32_t* scanned_sums) {
    const uint32_t b = blockIdx.x + 1, i = b * kScanBlock + threadIdx.x;
    if (i < n) x[i] += scanned_sums[b - 1];
}

uint32_t blocks_of(uint32_t n) { return (n + kScanBlock - 1) / kScanBlock; }
size_t scan_scratch(uint32_t n) { return n <= kScanBlock ? 1 : blocks_of(n) + scan_scratch(blocks_of(n)); }

void inclusive_scan(uint32_t* x, uint32_t n, uint32_t* scratch) {
    const uint32_t blocks = blocks_of(n);
    scan_blocks<<<blocks, kScanBlock>>>(x, n, scratch);
    if (blocks == 1) return;
    inclusive_scan(scratch, blocks, scratch + blocks);
    add_block_prefix<<<blocks - 1, kScanBlock>>>(x, n, scratch);
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
    if (r == runs - 1) lengths[runs] = 0;  // bug: the terminator is one element past the end when runs == n
}

extern "C" size_t workspace_size(uint32_t raw_count) {
    if (raw_count == 0) return 0;
    return sizeof(uint32_t) * (2 * (size_t)raw_count + scan_scratch(raw_count));
}

extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths) {
    const uint32_t n = raw_count;
    if (n == 0) return 0;
    uint32_t* flags = static_cast<uint32_t*>(workspace);
    uint32_t* starts = flags + n;
    uint32_t* scratch = starts + n;
    const uint32_t grid = (n + kThreads - 1) / kThreads;
    mark_starts<<<grid, kThreads>>>(raw, n, flags);
    inclusive_scan(flags, n, scratch);
    scatter_starts<<<grid, kThreads>>>(raw, n, flags, compressed_data, starts);
    uint32_t runs = 0;
    cudaMemcpy(&runs, flags + n - 1, sizeof runs, cudaMemcpyDeviceToHost);
    if (runs > 0) run_lengths<<<(runs + kThreads - 1) / kThreads, kThreads>>>(starts, runs, n, compressed_lengths);
    return runs;
}
