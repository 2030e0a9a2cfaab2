// vector-add: your solution. The task, rules and scoring are in README.md.
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* A, const float* B, float* C, int N) {
    // TODO: C[i] = A[i] + B[i] for every i < N (see README.md).
    // Compute a global index from blockIdx, blockDim and threadIdx and check
    // it against N: the grid can have more threads than there are elements.
}

// A, B and C are device pointers; solve() runs on the host and launches kernels.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    vector_add_kernel<<<blocks, threads>>>(A, B, C, N);
}
