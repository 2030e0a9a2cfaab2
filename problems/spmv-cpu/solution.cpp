// spmv-cpu: your solution. The task, the formats, the rules and scoring are in README.md.
// This starter defines solve() only, so it works on the CSR arrays as given; to convert the matrix first
// (a partition of the non-zeros, ELL, a hybrid, ...), also define workspace_size() and setup() as solve.h declares them.
#include <omp.h>

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    // TODO: for every row i < rows, y[i] = the sum of values[k] * x[col_idx[k]] over k from row_ptr[i] to
    // row_ptr[i + 1] - 1 (see README.md), with OpenMP across rows. y starts as garbage: write it, never add to it.
    (void)rows, (void)cols, (void)nnz, (void)row_ptr, (void)col_idx, (void)values, (void)workspace, (void)x, (void)y;
}
