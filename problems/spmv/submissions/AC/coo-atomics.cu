// COO, as the material describes it: one (row, column, value) per non-zero, one thread per non-zero, each product
// added to y[row] with atomicAdd, after y is zeroed. Must get AC: the additions into a row come in any order, which
// the per-row FP32 bound allows, and every row (an empty one too) starts from the cudaMemset's 0.
//   - The columns and values are the CSR's own; setup() (untimed) writes only the row of every non-zero into the
//     workspace (nnz ints), one thread per row filling its range.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void expand_rows(int rows, const int* row_ptr, int* row_of) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) row_of[k] = r;
}

__global__ void spmv_coo(int nnz, const int* row_of, const int* col_idx, const float* values, const float* x,
                         float* y) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz) atomicAdd(y + row_of[k], values[k] * x[col_idx[k]]);
}

extern "C" size_t workspace_size(int rows, int cols, int nnz) { return static_cast<size_t>(nnz) * sizeof(int); }

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    if (rows > 0) expand_rows<<<(rows + 255) / 256, 256>>>(rows, row_ptr, static_cast<int*>(workspace));
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    cudaMemsetAsync(y, 0, static_cast<size_t>(rows) * sizeof(float));
    if (nnz > 0)
        spmv_coo<<<(nnz + 255) / 256, 256>>>(nnz, static_cast<const int*>(workspace), col_idx, values, x, y);
}
