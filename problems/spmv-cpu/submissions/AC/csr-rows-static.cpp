// The first parallel version a student writes: the CSR loop with its rows split evenly among the threads
// (schedule(static)). Must get AC. On a matrix with a few very long rows the thread that owns them finishes last.
#include <omp.h>

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < rows; ++i) {
        float sum = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += values[k] * x[col_idx[k]];
        y[i] = sum;
    }
}
