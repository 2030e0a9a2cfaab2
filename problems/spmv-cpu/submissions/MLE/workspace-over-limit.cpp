// A submission that plans a dense copy of the matrix's rows and asks for more workspace than the statement
// allows: 9 x the input's bytes plus 8 MiB, where the limit is 8 x plus 4 MiB. Must get MLE on the first test,
// from workspace_size() alone: the judge never allocates it, and neither setup() nor solve() runs. Both are
// correct CSR code, so nothing else could fail.
#include <cstddef>

extern "C" size_t workspace_size(int rows, int cols, int nnz) {
    const size_t input = static_cast<size_t>(rows + 1) * 4 + static_cast<size_t>(nnz) * 8 + static_cast<size_t>(cols) * 4;
    return 9 * input + (size_t{8} << 20);
}

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    (void)rows, (void)cols, (void)nnz, (void)row_ptr, (void)col_idx, (void)values, (void)workspace;
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
    for (int i = 0; i < rows; ++i) {
        float sum = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += values[k] * x[col_idx[k]];
        y[i] = sum;
    }
}
