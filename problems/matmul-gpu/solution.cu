// matmul-gpu: your solution. The task, rules and scoring are in README.md.
#include <cuda_runtime.h>

// C (M x K) = A (M x N) * B (N x K), all row-major; N is the inner dimension:
// C[i*K + j] = sum over n < N of A[i*N + n] * B[n*K + j].
__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO: compute C (see README.md). A first version: one thread per element,
    // row i = blockIdx.y * blockDim.y + threadIdx.y, column j = blockIdx.x * blockDim.x
    // + threadIdx.x, skipping threads outside C. Then tile it in shared memory.
}

// A, B and C are device pointers; solve() runs on the host and launches kernels.
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(16, 16);
    const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
    matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
