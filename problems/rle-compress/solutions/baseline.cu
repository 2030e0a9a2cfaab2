// rle-compress baseline reference: what a first correct version looks like. Must get AC; sets the slow end of the
// score scale.
//   1. mark_starts: flags[i] = 1 where byte i starts a run (i = 0, or it differs from byte i - 1).
//   2. An inclusive scan of the flags, so flags[i] = the number of runs started at or before i: each block of 1024
//      scans its part in shared memory (Hillis-Steele), the block totals are scanned the same way (recursively, so
//      2^28 elements take three levels), and the preceding blocks' total is added back.
//   3. scatter_starts: the byte starting run r = flags[i] - 1 goes to compressed_data[r], its position to starts[r].
//   4. The run count R = flags[n - 1] is copied to the host; lengths[r] = starts[r + 1] - starts[r] (n for the last).
// Workspace: flags (4n bytes), starts (4n) and the block totals of every level (about 4n / 1000).
#include <cuda_runtime.h>

#include <cstdint>

constexpr uint32_t kScanBlock = 1024;  // elements (and threads) per block of the scan
constexpr uint32_t kThreads = 256;     // threads per block of the element-wise kernels

__global__ void mark_starts(const char* raw, uint32_t n, uint32_t* flags) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = (i == 0 || raw[i] != raw[i - 1]) ? 1 : 0;
}

// Inclusive scan of each block of kScanBlock elements of x, in place; block b's total goes to sums[b].
__global__ void scan_blocks(uint32_t* x, uint32_t n, uint32_t* sums) {
    __shared__ uint32_t s[kScanBlock];
    const uint32_t t = threadIdx.x, i = blockIdx.x * kScanBlock + t;
    s[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (uint32_t d = 1; d < kScanBlock; d *= 2) {
        const uint32_t add = t >= d ? s[t - d] : 0;
        __syncthreads();  // everyone has read before anyone writes
        s[t] += add;
        __syncthreads();
    }
    if (i < n) x[i] = s[t];
    if (t == kScanBlock - 1) sums[blockIdx.x] = s[t];
}

// Adds the (scanned) total of blocks 0..b-1 to every element of block b, for b >= 1.
__global__ void add_block_prefix(uint32_t* x, uint32_t n, const uint32_t* scanned_sums) {
    const uint32_t b = blockIdx.x + 1, i = b * kScanBlock + threadIdx.x;
    if (i < n) x[i] += scanned_sums[b - 1];
}

uint32_t blocks_of(uint32_t n) { return (n + kScanBlock - 1) / kScanBlock; }

// Elements of scratch inclusive_scan needs for n elements: the block totals of every level.
size_t scan_scratch(uint32_t n) { return n <= kScanBlock ? 1 : blocks_of(n) + scan_scratch(blocks_of(n)); }

// Inclusive scan of x[0..n), n >= 1; scratch holds scan_scratch(n) elements.
void inclusive_scan(uint32_t* x, uint32_t n, uint32_t* scratch) {
    const uint32_t blocks = blocks_of(n);
    scan_blocks<<<blocks, kScanBlock>>>(x, n, scratch);
    if (blocks == 1) return;
    inclusive_scan(scratch, blocks, scratch + blocks);  // scan the block totals
    add_block_prefix<<<blocks - 1, kScanBlock>>>(x, n, scratch);
}

__global__ void scatter_starts(const char* raw, uint32_t n, const uint32_t* scanned, char* data, uint32_t* starts) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || !(i == 0 || raw[i] != raw[i - 1])) return;
    const uint32_t r = scanned[i] - 1;  // runs started before i
    data[r] = raw[i];
    starts[r] = i;
}

__global__ void run_lengths(const uint32_t* starts, uint32_t runs, uint32_t n, uint32_t* lengths) {
    const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < runs) lengths[r] = (r + 1 < runs ? starts[r + 1] : n) - starts[r];
}

extern "C" size_t workspace_size(uint32_t raw_count) {
    if (raw_count == 0) return 0;
    return sizeof(uint32_t) * (2 * (size_t)raw_count + scan_scratch(raw_count));
}

extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths) {
    const uint32_t n = raw_count;
    if (n == 0) return 0;  // no runs; a launch of zero blocks would be an error
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
