// The COO submission's setup() with an off-by-one: it asks for nnz ints of workspace (the row of every
// non-zero) but also stores a sentinel one past the end (row_of[nnz] = rows). Must get RE on the first test
// (nnz-0: a workspace of 0 bytes, and 4 bytes written past it): the write lands in the judge's guard zone after
// the workspace, which the judge reads back right after setup() ("past the end of workspace").
#include <omp.h>

#include <cstddef>

extern "C" size_t workspace_size(int rows, int cols, int nnz) {
    (void)rows, (void)cols;
    return static_cast<size_t>(nnz) * sizeof(int);
}

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    (void)cols, (void)col_idx, (void)values;
    int* row_of = static_cast<int*>(workspace);
    for (int i = 0; i < rows; ++i)
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) row_of[k] = i;
    row_of[nnz] = rows;  // the bug: a sentinel past the end
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)row_ptr;
    const int* row_of = static_cast<const int*>(workspace);
    for (int i = 0; i < rows; ++i) y[i] = 0.0f;
    for (int k = 0; k < nnz; ++k) y[row_of[k]] += values[k] * x[col_idx[k]];
}
