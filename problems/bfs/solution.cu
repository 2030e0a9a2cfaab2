// bfs: your solution. The task, the graphs, the rules and scoring are in README.md.
// This starter is the shape of the level-synchronous, vertex-parallel BFS: one launch per level and a device flag
// that says whether the level reached anything. Fill in the two kernels; then make it fast (README.md, Background).
#include <cuda_runtime.h>

__global__ void init_levels(int n, int source, int* level) {
    // TODO: level[v] = 0 for the source, -1 for every other vertex. level starts as garbage.
}

__global__ void expand_level(int n, const int* row_ptr, const int* col_idx, int depth, int* level, int* changed) {
    // TODO: if vertex u = this thread's is on level `depth`, give each out-neighbour v = col_idx[k]
    // (k from row_ptr[u] to row_ptr[u + 1] - 1) that is still -1 the level depth + 1, and set *changed = 1.
}

// Every pointer is a device pointer; solve() runs on the host and launches kernels.
extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    if (n <= 0) return;
    const int threads = 256, blocks = (n + threads - 1) / threads;
    int* changed = nullptr;
    cudaMalloc(&changed, sizeof(int));
    init_levels<<<blocks, threads>>>(n, source, level);
    for (int depth = 0;; ++depth) {
        int host_changed = 0;
        cudaMemcpy(changed, &host_changed, sizeof(int), cudaMemcpyHostToDevice);
        expand_level<<<blocks, threads>>>(n, row_ptr, col_idx, depth, level, changed);
        cudaMemcpy(&host_changed, changed, sizeof(int), cudaMemcpyDeviceToHost);
        if (!host_changed) break;
    }
    cudaFree(changed);
}
