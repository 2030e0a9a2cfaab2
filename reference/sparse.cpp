#include "reference/sparse.h"

#include <atomic>
#include <cmath>
#include <limits>

#include <omp.h>

namespace hpcjudge::reference {

double fp32_dot_gamma(int64_t n) {
  const double nu = static_cast<double>(n) / 16777216.0;
  if (nu >= 1) return std::numeric_limits<double>::infinity();
  return nu / (1 - nu);
}

SpmvAnswer spmv(std::span<const int32_t> row_ptr, std::span<const int32_t> col_idx, std::span<const float> values,
                std::span<const float> x) {
  const int64_t rows = static_cast<int64_t>(row_ptr.size()) - 1;
  SpmvAnswer a;
  a.y.resize(static_cast<size_t>(rows));
  a.bound.resize(static_cast<size_t>(rows));
#pragma omp parallel for schedule(dynamic, 512) if (col_idx.size() > (1 << 16))
  for (int64_t i = 0; i < rows; ++i) {
    double s = 0, m = 0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      const double p = static_cast<double>(values[k]) * static_cast<double>(x[col_idx[k]]);  // exact in double
      s += p;
      m += std::fabs(p);
    }
    // The bound's own double rounding (n 2^-53 relative, far below 2^-24) is covered by a part in 10^6.
    a.y[i] = s;
    a.bound[i] = fp32_dot_gamma(row_ptr[i + 1] - row_ptr[i]) * m * (1 + 1e-6);
  }
  return a;
}

BfsAnswer bfs(std::span<const int32_t> row_ptr, std::span<const int32_t> col_idx, int32_t source) {
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  BfsAnswer a;
  a.level.assign(static_cast<size_t>(n), -1);
  if (n == 0) return a;
  // Level-synchronous top-down: each thread claims unvisited neighbours of its part of
  // the frontier with a compare-and-swap and gathers them in a next frontier of its own.
  std::vector<int32_t> frontier{source}, next;
  a.level[source] = 0;
  int64_t reached_edges = row_ptr[source + 1] - row_ptr[source];
  for (int32_t depth = 1; !frontier.empty(); ++depth) {
    const int threads = frontier.size() > 4096 ? omp_get_max_threads() : 1;
    std::vector<std::vector<int32_t>> found(static_cast<size_t>(threads));
    int64_t edges = 0;
#pragma omp parallel num_threads(threads) reduction(+ : edges)
    {
      std::vector<int32_t>& mine = found[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 256)
      for (int64_t f = 0; f < static_cast<int64_t>(frontier.size()); ++f) {
        const int32_t u = frontier[f];
        for (int64_t k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
          const int32_t v = col_idx[k];
          std::atomic_ref<int32_t> lv(a.level[v]);
          int32_t unseen = -1;
          if (lv.load(std::memory_order_relaxed) == -1 && lv.compare_exchange_strong(unseen, depth)) {
            mine.push_back(v);
            edges += row_ptr[v + 1] - row_ptr[v];
          }
        }
      }
    }
    reached_edges += edges;
    next.clear();
    for (const auto& f : found) next.insert(next.end(), f.begin(), f.end());
    frontier.swap(next);
  }
  a.reached_edges = reached_edges;
  return a;
}

}  // namespace hpcjudge::reference
