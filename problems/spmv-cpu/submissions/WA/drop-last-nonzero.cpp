// An off-by-one in the row loop's bound (k < row_ptr[i + 1] - 1): each row's last non-zero is dropped. Must get
// WA at the first test with a non-zero (1x1): the one product is missing, far outside that row's error bound.
#include <omp.h>

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
#pragma omp parallel for
    for (int i = 0; i < rows; ++i) {
        float sum = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1] - 1; ++k) sum += values[k] * x[col_idx[k]];
        y[i] = sum;
    }
}
