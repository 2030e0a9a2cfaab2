// merge vendor anchor for make bench: cub::DeviceMerge::MergeKeys (CUB, shipped with the CUDA toolkit: a merge path
// partition, then a tile merge in shared memory). Not a score end point: it is timed beside the baseline and fast
// references to show what the vendor library gets on this GPU.
//   - CUB's temporary storage (the tile partitions, about 4 bytes per tile) is asked of CUB (a host-side size query)
//     and kept in a buffer of our own between calls, grown when a larger input needs more: the first call (the
//     warm-up of a timed case) allocates, later calls only merge. It is counted against the judge's limit of the
//     buffers + 64 MiB.
//   - MergeKeys is unstable (ties from either side), which plain int keys cannot tell apart.
#include <cub/device/device_merge.cuh>
#include <cuda_runtime.h>

#include <cstddef>

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    if ((long long)M + N == 0) return;
    static void* temp = nullptr;
    static size_t temp_bytes = 0;
    size_t need = 0;
    if (cub::DeviceMerge::MergeKeys(nullptr, need, A, M, B, N, C) != cudaSuccess) return;
    if (need > temp_bytes) {
        if (temp) cudaFree(temp);
        temp = nullptr;
        temp_bytes = 0;
        if (cudaMalloc(&temp, need) != cudaSuccess) return;
        temp_bytes = need;
    }
    cub::DeviceMerge::MergeKeys(temp, need, A, M, B, N, C);
}
