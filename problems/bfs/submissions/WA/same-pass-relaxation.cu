// Vertex-parallel with a race that assigns longer levels: each pass, every vertex already reached (not only those on
// the current level) gives its unvisited neighbours its own level + 1, read when the thread runs. A vertex reached
// earlier in the same pass (by a thread that ran first) is expanded in that pass too, so a head can be claimed along
// a longer path before the thread of its shortest path runs, and it keeps the longer level. Right on a chain or a
// star; must get WA on a graph with paths of different lengths to one vertex (expected k, got more than k).
// hpcjudge-test: message=of level wrong
#include <cuda_runtime.h>

__global__ void init_levels(int n, int source, int* level) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) level[v] = v == source ? 0 : -1;
}

__global__ void relax(int n, const int* row_ptr, const int* col_idx, int* level, int* changed) {
    const int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    const int lu = level[u];  // the bug: may have been written earlier in this same pass
    if (lu < 0) return;
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
        const int v = col_idx[k];
        if (level[v] == -1) {
            level[v] = lu + 1;
            *changed = 1;
        }
    }
}

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    if (n <= 0) return;
    int* changed = nullptr;
    cudaMalloc(&changed, sizeof(int));
    init_levels<<<(n + 255) / 256, 256>>>(n, source, level);
    for (;;) {
        int host_changed = 0;
        cudaMemcpy(changed, &host_changed, sizeof(int), cudaMemcpyHostToDevice);
        relax<<<(n + 255) / 256, 256>>>(n, row_ptr, col_idx, level, changed);
        cudaMemcpy(&host_changed, changed, sizeof(int), cudaMemcpyDeviceToHost);
        if (!host_changed) break;
    }
    cudaFree(changed);
}
