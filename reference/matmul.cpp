#include "matmul.h"

#include <algorithm>
#include <vector>

#ifdef HPCJUDGE_HAVE_CBLAS
#include <cblas.h>
#endif

namespace hpcjudge::reference {

void matmul(std::span<const float> A, std::span<const float> B, std::span<double> C, int M, int N, int K) {
  const std::vector<double> a(A.begin(), A.end()), b(B.begin(), B.end());
#ifdef HPCJUDGE_HAVE_CBLAS
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, K, N, 1.0, a.data(), N, b.data(), K, 0.0, C.data(), K);
#else
  // Without BLAS (a GPU host with no OpenBLAS): i-n-j order, rows in parallel.
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < M; ++i) {
    double* c = C.data() + static_cast<size_t>(i) * K;
    std::fill(c, c + K, 0.0);
    for (int n = 0; n < N; ++n) {
      const double s = a[static_cast<size_t>(i) * N + n];
      const double* brow = b.data() + static_cast<size_t>(n) * K;
      for (int j = 0; j < K; ++j) c[j] += s * brow[j];
    }
  }
#endif
}

}  // namespace hpcjudge::reference
