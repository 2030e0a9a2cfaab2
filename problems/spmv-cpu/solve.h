// spmv-cpu: the functions your solution.cpp may define (solve is required; workspace_size and setup go together
// or not at all). The judge force-includes this header when it compiles your file.
#pragma once
#include <cstddef>
// Bytes of workspace setup() and solve() need for this matrix (at most 8 * the input's bytes + 4 MiB).
// Not defined: no workspace (and workspace is nullptr).
extern "C" size_t workspace_size(int rows, int cols, int nnz);
// Untimed, once per matrix, before the timed calls: may convert the CSR matrix into any format, in the workspace.
// x is not given. Not defined: solve() works on the CSR arrays directly.
extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace);
// y = A * x for the rows x cols matrix A in CSR (row_ptr: rows + 1 entries; col_idx, values: nnz), in FP32.
// workspace holds what setup() wrote.
extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y);
#ifdef HPCJUDGE_SUBMISSION
// Makes the link fail with "undefined reference to solve" when it is missing.
__attribute__((used)) static void* const hpcjudge_solve_anchor = (void*)&solve;
#endif
