// A submission that plans a dense copy of the matrix's rows and asks for more workspace than the statement allows:
// 9 x the input's bytes plus 8 MiB, where the limit is 8 x plus 4 MiB. Must get MLE on the first test, from
// workspace_size() alone ("workspace_size(1000, 1000, 0) asked for ... bytes; the limit is ..."): the judge never
// allocates it, and neither setup() nor solve() runs. Both are correct CSR code, so nothing else could fail.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void csr_scalar(int rows, const int* row_ptr, const int* col_idx, const float* values, const float* x,
                           float* y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) sum += values[k] * x[col_idx[k]];
    y[row] = sum;
}

extern "C" size_t workspace_size(int rows, int cols, int nnz) {
    const size_t input = (static_cast<size_t>(rows) + 1) * 4 + static_cast<size_t>(nnz) * 8 + static_cast<size_t>(cols) * 4;
    return 9 * input + (size_t{8} << 20);
}

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows > 0) csr_scalar<<<(rows + 255) / 256, 256>>>(rows, row_ptr, col_idx, values, x, y);
}
