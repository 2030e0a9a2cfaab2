// Frontier queues of a fixed 1024 entries each ("frontiers are small"), one allocation per queue, never checked:
// a level of more than 1024 vertices is written past the end of its queue's allocation. Right while every
// frontier fits (the first tests); must get RE. Under emulation the first write past the allocation is caught by
// the bounds check, at the first test with a larger level (loops-and-duplicates: 3,001 vertices of mean degree 8,
// over a thousand on one level). On the GPU a few KiB past a small allocation may land in memory the allocator
// holds (no fault), but the 10^6-vertex tests' levels of 10^5 vertices and more write megabytes past it and fault
// (cudaErrorIllegalAddress), and RE outranks any other verdict. The host loop stops at the first CUDA error,
// leaving it to be reported.
// hpcjudge-test: message=cudaErrorIllegalAddress
#include <cuda_runtime.h>

constexpr int kQueue = 1024;

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
        if (atomicCAS(&level[v], -1, depth + 1) == -1) out[atomicAdd(out_size, 1)] = v;  // bug: no bound
    }
}

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    if (n <= 0) return;
    int *q[2] = {nullptr, nullptr}, *size = nullptr;
    cudaMalloc(&q[0], kQueue * sizeof(int));
    cudaMalloc(&q[1], kQueue * sizeof(int));
    cudaMalloc(&size, sizeof(int));
    init_levels<<<(n + 255) / 256, 256>>>(n, source, level, q[0]);
    int in_size = 1;
    for (int depth = 0; in_size > 0; ++depth) {
        cudaMemset(size, 0, sizeof(int));
        expand<<<(in_size + 255) / 256, 256>>>(row_ptr, col_idx, depth, level, q[depth & 1], in_size,
                                               q[(depth + 1) & 1], size);
        if (cudaMemcpy(&in_size, size, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) break;
    }
    cudaFree(q[0]);
    cudaFree(q[1]);
    cudaFree(size);
}
