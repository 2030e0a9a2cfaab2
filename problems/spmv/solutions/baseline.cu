// spmv baseline: the material's CSR kernel, one thread per row, no setup() and no workspace. Sets the slow end of
// the score scale. Thread i walks row i's non-zeros itself: neighbouring threads read addresses a whole row apart
// (uncoalesced), and a warp waits for its longest row (divergence), which on a power-law matrix is a row of 10^5.
#include <cuda_runtime.h>

__global__ void csr_scalar(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                           const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) sum += values[k] * x[col_idx[k]];
    y[row] = sum;  // written, not added: y starts as garbage
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
    if (rows <= 0) return;
    csr_scalar<<<(rows + 255) / 256, 256>>>(rows, row_ptr, col_idx, values, x, y);
}
