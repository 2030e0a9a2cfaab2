// The baseline, except that it returns the position of the last byte it wrote (total - 1) instead of the number of
// bytes. Every byte of raw is right. Must get WA: the return value is checked exactly (empty returns 0 and passes;
// one returns 0, not 1).
#include <cuda_runtime.h>

#include <cstdint>

constexpr uint32_t kScanBlock = 1024;  // elements (and threads) per block of the scan
constexpr uint32_t kThreads = 256;     // threads per block of expand_bytes

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

// One thread per output byte: byte p belongs to the first run whose end is past p (a binary search).
__global__ void expand_bytes(const char* data, const uint32_t* ends, uint32_t count, uint32_t total, char* raw) {
    const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= total) return;
    uint32_t lo = 0, hi = count - 1;  // the answer is in [lo, hi]
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (ends[mid] > p)
            hi = mid;
        else
            lo = mid + 1;
    }
    raw[p] = data[lo];
}

extern "C" size_t workspace_size(uint32_t compressed_count) {
    if (compressed_count == 0) return 0;
    return sizeof(uint32_t) * ((size_t)compressed_count + scan_scratch(compressed_count));
}

extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity) {
    (void)raw_capacity;  // equal to the total of the lengths
    const uint32_t c = compressed_count;
    if (c == 0) return 0;  // nothing to write; a launch of zero blocks would be an error
    uint32_t* ends = static_cast<uint32_t*>(workspace);
    uint32_t* scratch = ends + c;
    cudaMemcpyAsync(ends, compressed_lengths, sizeof(uint32_t) * c, cudaMemcpyDeviceToDevice);
    inclusive_scan(ends, c, scratch);
    uint32_t total = 0;
    cudaMemcpy(&total, ends + c - 1, sizeof total, cudaMemcpyDeviceToHost);
    if (total > 0) expand_bytes<<<(total + kThreads - 1) / kThreads, kThreads>>>(compressed_data, ends, c, total, raw);
    return total - 1;  // bug: the position of the last byte written, not the number of bytes
}
