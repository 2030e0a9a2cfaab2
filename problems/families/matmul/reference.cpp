#include "problems/families/matmul/reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <strings.h>
#include <vector>

#ifdef HPCJUDGE_HAVE_CBLAS
#include <cblas.h>
extern "C" char* openblas_get_corename(void);
#endif

#include "sdk/philox.h"

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

namespace hpcjudge::reference {

std::string matmul_spot_check(std::span<const float> A, std::span<const float> B, std::span<const float> C,
                              int64_t M, int64_t N, int64_t K, double atol, uint64_t draw) {
  char why[256];
  std::vector<double> r(K), y(N), z(M), w(M);
  for (uint32_t trial = 0; trial < 2; ++trial) {
    for (int64_t j = 0; j < K; ++j) r[j] = philox_bits(draw, trial, j).v[0] & 1 ? 1.0 : -1.0;
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; ++n) {  // y = B·r
      double s = 0;
      for (int64_t j = 0; j < K; ++j) s += B[n * K + j] * r[j];
      y[n] = s;
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < M; ++i) {  // z = A·y, w = C·r
      double s = 0, t = 0;
      for (int64_t n = 0; n < N; ++n) s += A[i * N + n] * y[n];
      for (int64_t j = 0; j < K; ++j) t += C[i * K + j] * r[j];
      z[i] = s, w[i] = t;
    }
    for (int64_t i = 0; i < M; ++i)
      if (!(std::fabs(w[i] - z[i]) <= static_cast<double>(K) * atol)) {  // NaN fails too
        std::snprintf(why, sizeof why,
                      "Freivalds' check failed: row %lld of C times a random +-1 vector is %.9g, A·(B·r) is %.9g "
                      "(allowed difference %.3g)",
                      static_cast<long long>(i), w[i], z[i], static_cast<double>(K) * atol);
        return why;
      }
  }
  for (uint64_t s = 0; s < 64 && M > 0 && K > 0; ++s) {
    const Philox4x32 p = philox_bits(draw, 2, s);
    const int64_t i = p.v[0] % M, j = p.v[1] % K;
    double e = 0;
    for (int64_t n = 0; n < N; ++n) e += static_cast<double>(A[i * N + n]) * B[n * K + j];
    const double got = C[i * K + j];
    if (!(std::fabs(got - e) <= atol)) {
      std::snprintf(why, sizeof why, "sampled element C[%lld,%lld]: expected %.9g, got %.9g (atol %.3g)",
                    static_cast<long long>(i), static_cast<long long>(j), e, got, atol);
      return why;
    }
  }
  return "";
}

const char* openblas_coretype_for(const char* chosen, bool avx512, bool avx2_fma) {
  // OpenBLAS's x86 kernels of the AVX2 class or later (DYNAMIC_ARCH's names, compared without case).
  for (const char* good : {"haswell", "zen", "skylakex", "cooperlake", "sapphirerapids", "excavator"})
    if (chosen && strcasecmp(chosen, good) == 0) return nullptr;
  return avx512 ? "SkylakeX" : avx2_fma ? "Haswell" : nullptr;
}

const char* openblas_coretype_to_name() {
#if defined(HPCJUDGE_HAVE_CBLAS) && defined(__x86_64__)
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return openblas_coretype_for(openblas_get_corename(), avx512,
                               __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#else
  return nullptr;
#endif
}

}  // namespace hpcjudge::reference
