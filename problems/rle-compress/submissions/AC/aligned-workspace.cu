// A correct compressor written as course material teaches: every array carved out of the workspace is aligned to 256
// bytes (as a generic scan sizes them), so workspace_size() asks for 4 arrays rounded up to 256 bytes: about 4.9 KiB
// at raw_count = 1, far over 16 bytes per input byte there. Must get AC: the workspace limit is 16x the input plus
// 4 MiB. The scan is one block of threads, each owning a contiguous chunk: slow, but a different shape of solution.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr uint32_t kThreads = 1024;  // threads of the one scan block, and chunks of the input
constexpr size_t kAlign = 256;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

struct Carved {
    uint32_t* starts;  // position of each run's first byte
    uint32_t* before;  // runs started in the chunks before each chunk
    uint32_t* runs;    // the run count
    uint32_t* spare;   // the per-element flags of the course's generic scan, unused here but sized as it sizes them
};

Carved carve(void* workspace, uint32_t n) {
    char* p = static_cast<char*>(workspace);
    Carved c{};
    c.starts = reinterpret_cast<uint32_t*>(p), p += aligned(sizeof(uint32_t) * n);
    c.before = reinterpret_cast<uint32_t*>(p), p += aligned(sizeof(uint32_t) * kThreads);
    c.runs = reinterpret_cast<uint32_t*>(p), p += aligned(sizeof(uint32_t));
    c.spare = reinterpret_cast<uint32_t*>(p);
    return c;
}

__device__ bool starts_run(const char* raw, uint32_t i) { return i == 0 || raw[i] != raw[i - 1]; }

// One block: thread t counts the runs starting in its chunk, the counts are scanned in shared memory, then each
// thread writes its runs' bytes and start positions.
__global__ void compress(const char* raw, uint32_t n, Carved c, char* data) {
    __shared__ uint32_t count[kThreads];
    const uint32_t t = threadIdx.x, chunk = (n + kThreads - 1) / kThreads;
    const uint32_t from = min(n, t * chunk), to = min(n, from + chunk);
    uint32_t mine = 0;
    for (uint32_t i = from; i < to; ++i) mine += starts_run(raw, i);
    count[t] = mine;
    __syncthreads();
    if (t == 0) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < kThreads; ++k) c.before[k] = sum, sum += count[k];
        *c.runs = sum;
    }
    __syncthreads();
    uint32_t r = c.before[t];
    for (uint32_t i = from; i < to; ++i)
        if (starts_run(raw, i)) data[r] = raw[i], c.starts[r++] = i;
}

__global__ void run_lengths(Carved c, uint32_t n, uint32_t* lengths) {
    const uint32_t runs = *c.runs;
    for (uint32_t r = blockIdx.x * blockDim.x + threadIdx.x; r < runs; r += gridDim.x * blockDim.x)
        lengths[r] = (r + 1 < runs ? c.starts[r + 1] : n) - c.starts[r];
}

}  // namespace

extern "C" size_t workspace_size(uint32_t raw_count) {
    return aligned(sizeof(uint32_t) * raw_count) + aligned(sizeof(uint32_t) * kThreads) + aligned(sizeof(uint32_t)) +
           aligned(sizeof(uint32_t) * raw_count);
}

extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths) {
    if (raw_count == 0) return 0;
    const Carved c = carve(workspace, raw_count);
    compress<<<1, kThreads>>>(raw, raw_count, c, compressed_data);
    run_lengths<<<256, 256>>>(c, raw_count, compressed_lengths);
    uint32_t runs = 0;
    cudaMemcpy(&runs, c.runs, sizeof runs, cudaMemcpyDeviceToHost);
    return runs;
}
