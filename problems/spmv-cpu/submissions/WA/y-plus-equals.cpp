// The textbook loop accumulating straight into y (y[i] += values[k] * x[col_idx[k]]), as if y started at zero.
// It does not: the judge fills y with NaN before every call, so every row comes out NaN. Must get WA on the first
// test (nnz-0, where the right answer is 0 everywhere).
#include <omp.h>

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
#pragma omp parallel for
    for (int i = 0; i < rows; ++i)
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) y[i] += values[k] * x[col_idx[k]];
}
