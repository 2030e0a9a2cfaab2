// reduction vendor anchor for make bench: cub::DeviceReduce::Sum (CUB, shipped with the CUDA toolkit). Not a score
// end point: it is timed beside the baseline and fast references to show what the vendor library gets on this GPU.
//   - CUB's temporary storage (its per-block partials, a few KiB) is asked of CUB (a host-side size query) and kept
//     in a buffer of our own between calls, grown when a larger N needs more: the first call (the warm-up of a
//     timed case) allocates, later calls only reduce. It is counted against the judge's limit of the buffers +
//     64 MiB.
//   - CUB sums in a tree of fixed shape (per-thread sums, block reductions, one more pass over the block sums), one
//     of the orders the tolerance admits.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cstddef>

extern "C" void solve(const float* input, float* output, int N) {
    static void* temp = nullptr;
    static size_t temp_bytes = 0;
    size_t need = 0;
    if (cub::DeviceReduce::Sum(nullptr, need, input, output, N) != cudaSuccess) return;
    if (need > temp_bytes) {
        if (temp) cudaFree(temp);
        temp = nullptr;
        temp_bytes = 0;
        if (cudaMalloc(&temp, need) != cudaSuccess) return;
        temp_bytes = need;
    }
    cub::DeviceReduce::Sum(temp, need, input, output, N);
}
