// Frontier queues that enqueue every out-neighbour, visited or not (the level is still written only over -1),
// in a ring of n slots ("each vertex enters once, so n slots are enough") so nothing overflows. On a graph with a
// cycle (here every edge is one: u -> v and v -> u) the frontier never empties and the level loop never ends. Right
// on the graphs without edges; must get TLE on the first test with one (pair).
// hpcjudge-test: message=test pair
// hpcjudge-test: message=did not return within
#include <cuda_runtime.h>

__global__ void init_levels(int n, int source, int* level, int* queue) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) level[v] = v == source ? 0 : -1;
    if (v == 0) queue[0] = source;
}

__global__ void expand(int n, const int* row_ptr, const int* col_idx, int depth, int* level, const int* in,
                       int in_size, int* out, int* out_size) {
    const int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= in_size) return;
    const int u = in[f];
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
        const int v = col_idx[k];
        atomicCAS(&level[v], -1, depth + 1);
        out[atomicAdd(out_size, 1) % n] = v;  // the bug: enqueued even when already visited
    }
}

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    if (n <= 0) return;
    int *queues = nullptr, *size = nullptr;
    cudaMalloc(&queues, 2 * static_cast<size_t>(n) * sizeof(int));
    cudaMalloc(&size, sizeof(int));
    int* q[2] = {queues, queues + n};
    init_levels<<<(n + 255) / 256, 256>>>(n, source, level, q[0]);
    int in_size = 1;
    for (int depth = 0; in_size > 0; ++depth) {
        cudaMemset(size, 0, sizeof(int));
        expand<<<(in_size + 255) / 256, 256>>>(n, row_ptr, col_idx, depth, level, q[depth & 1], in_size,
                                               q[(depth + 1) & 1], size);
        cudaMemcpy(&in_size, size, sizeof(int), cudaMemcpyDeviceToHost);
        if (in_size > n) in_size = n;  // the ring holds n
    }
    cudaFree(queues);
    cudaFree(size);
}
