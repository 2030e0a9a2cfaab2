// CSR-scalar as many textbook kernels write it: `y[row] += sum`, which assumes y starts at zero. The judge's y starts
// as NaN (an output's sentinel), and NaN + anything is NaN. Must get WA: every row is NaN, on every test (nnz-0's
// empty rows included: NaN + 0 is NaN).
#include <cuda_runtime.h>

__global__ void csr_scalar_accumulate(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                      const float* __restrict__ values, const float* __restrict__ x, float* y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) sum += values[k] * x[col_idx[k]];
    y[row] += sum;  // the bug: y was never set to 0
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    csr_scalar_accumulate<<<(rows + 255) / 256, 256>>>(rows, row_ptr, col_idx, values, x, y);
}
