// Frontier queues with a visited bitmap of its own: it writes level[v] only when it reaches v, and never writes -1
// for the vertices it cannot reach (level starts as INT32_MIN, not -1). Right on every connected graph; must get WA
// on the first test with an unreachable vertex (m-0: expected -1, got -2147483648).
// hpcjudge-test: message=test m-0
// hpcjudge-test: message=expected -1, got -2147483648
#include <cuda_runtime.h>

__global__ void start(int source, int* level, int* visited, int* queue) {
    level[source] = 0;
    visited[source] = 1;
    queue[0] = source;
}

__global__ void expand(const int* row_ptr, const int* col_idx, int depth, int* level, int* visited, const int* in,
                       int in_size, int* out, int* out_size) {
    const int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= in_size) return;
    const int u = in[f];
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
        const int v = col_idx[k];
        if (atomicCAS(&visited[v], 0, 1) == 0) {
            level[v] = depth + 1;
            out[atomicAdd(out_size, 1)] = v;
        }
    }
}

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    if (n <= 0) return;
    int *queues = nullptr, *visited = nullptr, *size = nullptr;
    cudaMalloc(&queues, 2 * static_cast<size_t>(n) * sizeof(int));
    cudaMalloc(&visited, static_cast<size_t>(n) * sizeof(int));
    cudaMalloc(&size, sizeof(int));
    cudaMemset(visited, 0, static_cast<size_t>(n) * sizeof(int));
    int* q[2] = {queues, queues + n};
    start<<<1, 1>>>(source, level, visited, q[0]);  // the bug: no level[v] = -1 for the others
    int in_size = 1;
    for (int depth = 0; in_size > 0; ++depth) {
        cudaMemset(size, 0, sizeof(int));
        expand<<<(in_size + 255) / 256, 256>>>(row_ptr, col_idx, depth, level, visited, q[depth & 1], in_size,
                                               q[(depth + 1) & 1], size);
        cudaMemcpy(&in_size, size, sizeof(int), cudaMemcpyDeviceToHost);
    }
    cudaFree(queues);
    cudaFree(visited);
    cudaFree(size);
}
