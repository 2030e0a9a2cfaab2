// rle-decompress: your solution. The task, rules and scoring are in README.md.
#include <cuda_runtime.h>

#include <cstdint>

// Run i is compressed_lengths[i] copies of compressed_data[i]; the runs are written one after another into raw.
__global__ void rld_kernel(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                           void* workspace, char* raw, uint32_t raw_capacity) {
    // TODO: decompress (see README.md). A first version:
    // 1. scan the lengths (prefix sums, across blocks) into the workspace: run i starts at the sum of the lengths
    //    before it, and the last sum is the number of bytes,
    // 2. write each run's bytes from its start.
    // One thread per run is correct but slow when some runs are long; give every thread the same number of OUTPUT
    // bytes instead, and let it search the starts for its runs.
}

// Bytes of device scratch memory solve() needs (at most 80 * compressed_count), allocated by the judge.
extern "C" size_t workspace_size(uint32_t compressed_count) {
    (void)compressed_count;
    return 0;  // TODO: room for the run starts (and whatever your scan needs)
}

// All pointers are device pointers; solve() runs on the host, launches kernels and returns the bytes written.
extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity) {
    if (compressed_count == 0) return 0;  // nothing to write (and a grid of zero blocks would be an error)
    rld_kernel<<<(compressed_count + 255) / 256, 256>>>(compressed_count, compressed_data, compressed_lengths,
                                                        workspace, raw, raw_capacity);
    uint32_t written = 0;  // TODO: cudaMemcpy the byte count from device memory
    return written;
}
