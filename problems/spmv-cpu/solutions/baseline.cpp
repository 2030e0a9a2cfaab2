// spmv-cpu baseline reference: what a beginner writes first, the CSR loop on one core (no OpenMP, no setup()).
// Must get AC; sets the slow end of the score scale.
extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)nnz, (void)workspace;
    for (int i = 0; i < rows; ++i) {
        float sum = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += values[k] * x[col_idx[k]];
        y[i] = sum;  // written, not added: y starts as garbage
    }
}
