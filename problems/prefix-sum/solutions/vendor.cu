// prefix-sum vendor anchor for make bench: cub::DeviceScan::InclusiveSum (CUB, shipped with the CUDA toolkit), a
// single-pass decoupled look-back scan. Not a score end point: it is timed beside the baseline and fast references
// to show what the vendor library gets on this GPU.
//   - CUB's temporary storage (tile descriptors, a few hundred KiB at N = 2^28) is asked of CUB (a host-side size
//     query) and kept in a buffer of our own between calls, grown when a larger N needs more: the first call
//     (the warm-up of a timed case) allocates, later calls only scan. It is counted against the judge's limit of
//     the buffers + 64 MiB.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <cstddef>

extern "C" void solve(const int* input, int* output, int N) {
    static void* temp = nullptr;
    static size_t temp_bytes = 0;
    size_t need = 0;
    if (cub::DeviceScan::InclusiveSum(nullptr, need, input, output, N) != cudaSuccess) return;
    if (need > temp_bytes) {
        if (temp) cudaFree(temp);
        temp = nullptr;
        temp_bytes = 0;
        if (cudaMalloc(&temp, need) != cudaSuccess) return;
        temp_bytes = need;
    }
    cub::DeviceScan::InclusiveSum(temp, need, input, output, N);
}
