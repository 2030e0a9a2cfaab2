// spmv: your solution. The task, the formats, the rules and scoring are in README.md.
// This starter defines solve() only, so it works on the CSR arrays as given; to convert the matrix first
// (ELL, JDS, a hybrid, ...), also define workspace_size() and setup() as solve.h declares them.
#include <cuda_runtime.h>

__global__ void spmv_csr_kernel(int rows, const int* row_ptr, const int* col_idx, const float* values, const float* x,
                                float* y) {
    // TODO: y[row] = the sum of values[k] * x[col_idx[k]] over row's non-zeros,
    // k from row_ptr[row] to row_ptr[row + 1] - 1 (see README.md). y starts as garbage: write it, never add to it.
}

// Every pointer is a device pointer; solve() runs on the host and launches kernels.
extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    if (blocks > 0) spmv_csr_kernel<<<blocks, threads>>>(rows, row_ptr, col_idx, values, x, y);
}
