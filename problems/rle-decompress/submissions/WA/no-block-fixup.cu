// The baseline's algorithm with a scan that stops at the block level: each block of 1024 lengths is scanned in
// shared memory, but the total of the blocks before it is never added (the cross-block fix-up is missing). Must get
// WA: correct while compressed_count <= 1024 (one block: the tests empty, one, two, three and block-boundaries pass),
// then the run ends of every later block are too low: the count returned is the last block's sum only, the bytes
// past it are never written (the sentinel stays) and the binary search over the unsorted ends picks wrong runs. Every
// write is below that too-small count, so nothing is written outside raw (no RE).
#include <cuda_runtime.h>

#include <cstdint>

constexpr uint32_t kScanBlock = 1024;
constexpr uint32_t kThreads = 256;

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

extern "C" size_t workspace_size(uint32_t compressed_count) { return sizeof(uint32_t) * (size_t)compressed_count; }

extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity) {
    (void)raw_capacity;
    const uint32_t c = compressed_count;
    if (c == 0) return 0;
    uint32_t* ends = static_cast<uint32_t*>(workspace);
    cudaMemcpyAsync(ends, compressed_lengths, sizeof(uint32_t) * c, cudaMemcpyDeviceToDevice);
    scan_blocks<<<(c + kScanBlock - 1) / kScanBlock, kScanBlock>>>(ends, c);
    uint32_t total = 0;
    cudaMemcpy(&total, ends + c - 1, sizeof total, cudaMemcpyDeviceToHost);
    if (total > 0) expand_bytes<<<(total + kThreads - 1) / kThreads, kThreads>>>(compressed_data, ends, c, total, raw);
    return total;
}
