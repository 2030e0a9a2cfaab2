// The COO submission's setup() with an off-by-one: it asks for nnz ints of workspace (the row of every non-zero),
// but its expansion kernel runs k from 0 to nnz INCLUSIVE, writing one int past the end of the workspace. Must get RE
// on the first test (nnz-0: a workspace of 0 bytes, and 4 bytes written past it): the write lands in the judge's
// guard zone after the workspace (inside its allocation, so no CUDA fault), and the judge reads the guard zones back
// right after setup() ("after setup(): ... past the end of workspace").
#include <cuda_runtime.h>

#include <cstddef>

__global__ void expand_rows_off_by_one(int rows, int nnz, const int* row_ptr, int* row_of) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k > nnz) return;  // the bug: k == nnz is past the end
    // The row of non-zero k by binary search over row_ptr (k == nnz finds the last row).
    int lo = 0, hi = rows - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (row_ptr[mid] <= k) lo = mid;
        else hi = mid - 1;
    }
    row_of[k] = lo;
}

__global__ void spmv_coo(int nnz, const int* row_of, const int* col_idx, const float* values, const float* x,
                         float* y) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz) atomicAdd(y + row_of[k], values[k] * x[col_idx[k]]);
}

extern "C" size_t workspace_size(int rows, int cols, int nnz) { return static_cast<size_t>(nnz) * sizeof(int); }

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    if (rows > 0) expand_rows_off_by_one<<<nnz / 256 + 1, 256>>>(rows, nnz, row_ptr, static_cast<int*>(workspace));
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    cudaMemsetAsync(y, 0, static_cast<size_t>(rows) * sizeof(float));
    if (nnz > 0)
        spmv_coo<<<(nnz + 255) / 256, 256>>>(nnz, static_cast<const int*>(workspace), col_idx, values, x, y);
}
