// Top-down BFS with frontier queues: a thread per vertex of the current queue claims each unvisited out-neighbour
// with atomicCAS (exactly one thread wins it) and appends it to the next queue; the host reads the next queue's
// length after each level. Must get AC.
#include <cuda_runtime.h>

__global__ void init_levels(int n, int source, int* level, int* queue) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) level[v] = v == source ? 0 : -1;
    if (v == 0) queue[0] = source;
}

__global__ void expand(const int* row_ptr, const int* col_idx, int depth, int* level, const int* in, int in_size,
                       int* out, int* out_size) {
    const int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= in_size) return;
    const int u = in[f];
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
        const int v = col_idx[k];
        if (atomicCAS(&level[v], -1, depth + 1) == -1) out[atomicAdd(out_size, 1)] = v;
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
        expand<<<(in_size + 255) / 256, 256>>>(row_ptr, col_idx, depth, level, q[depth & 1], in_size,
                                               q[(depth + 1) & 1], size);
        cudaMemcpy(&in_size, size, sizeof(int), cudaMemcpyDeviceToHost);
    }
    cudaFree(queues);
    cudaFree(size);
}
