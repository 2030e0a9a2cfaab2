// Calls OpenBLAS's cblas_sgemm. Must get CE quoting the rule: matmul-cpu allows the C++ standard library and
// OpenMP only, and the judge checks the headers a submission includes before compiling it.
// hpcjudge-test: message=uses BLAS/LAPACK
// hpcjudge-test: message=matmul-cpu allows the C++ standard library and OpenMP only
#include <cblas.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, K, N, 1.0f, A, N, B, K, 0.0f, C, K);
}
