#include "problems/families/attention/reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef HPCJUDGE_HAVE_CBLAS
#include <cblas.h>
#endif

namespace hpcjudge::reference {

namespace {

// rows × cols block of a head's columns [col, col + cols) of an N×ld matrix, in double.
std::vector<double> head_block(std::span<const float> X, int64_t ld, int64_t row, int64_t rows, int64_t col,
                               int64_t cols) {
  std::vector<double> b(static_cast<size_t>(rows * cols));
#pragma omp parallel for if (rows * cols > (1 << 16))
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) b[i * cols + j] = X[(row + i) * ld + col + j];
  return b;
}

// C (m×n) = alpha · A (m×k) · op(B), op(B) = Bᵀ (B n×k) when trans_b, else B (k×n).
void gemm(bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* A, const double* B, double* C) {
#ifdef HPCJUDGE_HAVE_CBLAS
  cblas_dgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), alpha, A, static_cast<int>(k), B,
              static_cast<int>(trans_b ? k : n), 0.0, C, static_cast<int>(n));
#else
  // Without BLAS (a GPU host with no OpenBLAS): rows of C in parallel.
#pragma omp parallel for schedule(dynamic, 4)
  for (int64_t i = 0; i < m; ++i) {
    double* c = C + i * n;
    if (trans_b) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < k; ++q) s += A[i * k + q] * B[j * k + q];
        c[j] = alpha * s;
      }
    } else {
      std::fill(c, c + n, 0.0);
      for (int64_t q = 0; q < k; ++q) {
        const double a = alpha * A[i * k + q];
        for (int64_t j = 0; j < n; ++j) c[j] += a * B[q * n + j];
      }
    }
  }
#endif
}

}  // namespace

void attention(std::span<const float> Q, std::span<const float> K, std::span<const float> V, std::span<double> out,
               int64_t N, int64_t d_model, int64_t h) {
  const int64_t dk = d_model / h;
  // Query rows per block: the block's scores (rows × N doubles) stay near 64 MiB.
  const int64_t rows = std::clamp<int64_t>((int64_t{8} << 20) / std::max<int64_t>(N, 1), 1, 4096);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  std::vector<double> S, O(static_cast<size_t>(rows * dk));
  for (int64_t head = 0; head < h; ++head) {
    const int64_t col = head * dk;
    const std::vector<double> Kh = head_block(K, d_model, 0, N, col, dk), Vh = head_block(V, d_model, 0, N, col, dk);
    for (int64_t r0 = 0; r0 < N; r0 += rows) {
      const int64_t m = std::min(rows, N - r0);
      const std::vector<double> Qb = head_block(Q, d_model, r0, m, col, dk);
      S.resize(static_cast<size_t>(m * N));
      gemm(true, m, N, dk, scale, Qb.data(), Kh.data(), S.data());  // scores
#pragma omp parallel for if (m * N > (1 << 16))
      for (int64_t i = 0; i < m; ++i) {  // row softmax, unnormalised; the sum divides O below
        double* s = S.data() + i * N;
        const double mx = *std::max_element(s, s + N);
        for (int64_t j = 0; j < N; ++j) s[j] = std::exp(s[j] - mx);
      }
      gemm(false, m, dk, N, 1.0, S.data(), Vh.data(), O.data());
#pragma omp parallel for if (m * N > (1 << 16))
      for (int64_t i = 0; i < m; ++i) {
        const double* s = S.data() + i * N;
        double sum = 0;
        for (int64_t j = 0; j < N; ++j) sum += s[j];
        for (int64_t j = 0; j < dk; ++j) out[(r0 + i) * d_model + col + j] = O[i * dk + j] / sum;
      }
    }
  }
}

void attention_rows(std::span<const float> Q, std::span<const float> K, std::span<const float> V,
                    std::span<const int64_t> rows, std::span<double> out, int64_t N, int64_t d_model, int64_t h) {
  const int64_t dk = d_model / h, count = static_cast<int64_t>(rows.size());
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int64_t r = 0; r < count; ++r)
    for (int64_t head = 0; head < h; ++head) {
      const int64_t col = head * dk;
      const float* q = &Q[rows[r] * d_model + col];
      std::vector<double> s(static_cast<size_t>(N));
      for (int64_t j = 0; j < N; ++j) {
        double dot = 0;
        for (int64_t t = 0; t < dk; ++t) dot += static_cast<double>(q[t]) * K[j * d_model + col + t];
        s[j] = dot * scale;
      }
      const double mx = *std::max_element(s.begin(), s.end());
      double sum = 0;
      for (double& v : s) sum += (v = std::exp(v - mx));
      double* o = &out[r * d_model + col];
      std::fill(o, o + dk, 0.0);
      for (int64_t j = 0; j < N; ++j)
        for (int64_t t = 0; t < dk; ++t) o[t] += s[j] * V[j * d_model + col + t];
      for (int64_t t = 0; t < dk; ++t) o[t] /= sum;
    }
}

}  // namespace hpcjudge::reference
