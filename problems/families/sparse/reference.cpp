#include "problems/families/sparse/reference.h"

#include <atomic>
#include <cmath>
#include <algorithm>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

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
  a.level.resize(static_cast<size_t>(n));
  if (n == 0) return a;
  int32_t* level = a.level.data();
  const int32_t* rp = row_ptr.data();
  const int32_t* ci = col_idx.data();
  const bool big = n > (1 << 16);
  const int threads = big ? omp_get_max_threads() : 1;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t v = 0; v < n; ++v) level[v] = -1;
  auto degree = [&](int64_t v) -> int64_t { return rp[v + 1] - rp[v]; };
  // Level-synchronous, in the direction that touches fewer edges (Beamer's direction-optimising search, which
  // needs each edge stored both ways, as every graph of the bfs family has it): top-down from the frontier while
  // its edges are few against those still unexplored; bottom-up (every vertex not reached yet looks for a
  // neighbour on the last level, and stops at the first) while the frontier is a large part of the graph, as
  // R-MAT's middle levels are. A small frontier (a grid's or a chain's thousands of levels) is walked by one
  // thread; the others in parallel, a vertex claimed by a compare-and-swap top-down, by its own thread bottom-up.
  constexpr int64_t kParallelFrontier = 4096;  // frontier vertices, top-down
  constexpr int64_t kAlpha = 14, kBeta = 24;    // Beamer's switching thresholds
  // The frontier and the next level: room for every vertex.
  UninitVector<int32_t> frontier_buffer(static_cast<size_t>(n)), next_buffer(static_cast<size_t>(n));
  int32_t* frontier = frontier_buffer.data();
  int32_t* next = next_buffer.data();
  std::vector<std::vector<int32_t>> found(static_cast<size_t>(threads));  // each thread's part of the next level
  // One level on every thread: each clears its part and calls visit(part), which shares its loop out with an
  // orphaned `omp for` and returns the edges of the vertices it found; then the parts, one after another, are
  // the next level. Its size and edges.
  auto in_parallel = [&](auto visit) {
    int64_t edges = 0;
#pragma omp parallel num_threads(threads) reduction(+ : edges)
    {
      std::vector<int32_t>& mine = found[static_cast<size_t>(omp_get_thread_num())];
      mine.clear();
      edges += visit(mine);
    }
    int64_t size = 0;
    for (const auto& f : found) {
      std::copy(f.begin(), f.end(), next + size);
      size += static_cast<int64_t>(f.size());
    }
    return std::pair{size, edges};
  };
  int64_t size = 1;
  frontier[0] = source;
  level[source] = 0;
  int64_t frontier_edges = degree(source);
  int64_t unexplored = static_cast<int64_t>(col_idx.size()) - frontier_edges;  // edges of vertices not reached
  a.reached_edges = frontier_edges;
  bool bottom_up = false;
  for (int32_t depth = 1; size > 0; ++depth) {
    if (!bottom_up && big && frontier_edges > unexplored / kAlpha) bottom_up = true;
    else if (bottom_up && size < n / kBeta) bottom_up = false;
    int64_t edges = 0, next_size = 0;
    // The level and the arrays taken by value into each level's loop: by reference, the stores to level[] may
    // alias them, and rmat-20's search took about 1.15x the time of the loops written out (2-core VM, runs apart).
    if (bottom_up) {
      std::tie(next_size, edges) = in_parallel([&, depth, level, rp, ci](std::vector<int32_t>& mine) {
        int64_t found_edges = 0;
#pragma omp for schedule(dynamic, 1024)
        for (int64_t v = 0; v < n; ++v) {
          if (std::atomic_ref<int32_t>(level[v]).load(std::memory_order_relaxed) != -1) continue;
          for (int64_t k = rp[v]; k < rp[v + 1]; ++k)
            // A vertex claimed in this level holds depth, never depth - 1: the race on level[] changes nothing.
            if (std::atomic_ref<int32_t>(level[ci[k]]).load(std::memory_order_relaxed) == depth - 1) {
              std::atomic_ref<int32_t>(level[v]).store(depth, std::memory_order_relaxed);
              mine.push_back(static_cast<int32_t>(v));
              found_edges += degree(v);
              break;
            }
        }
        return found_edges;
      });
    } else if (size <= kParallelFrontier || threads == 1) {
      for (int64_t f = 0; f < size; ++f) {
        const int32_t u = frontier[f];
        for (int64_t k = rp[u]; k < rp[u + 1]; ++k) {
          const int32_t v = ci[k];
          if (level[v] == -1) {
            level[v] = depth;
            next[next_size++] = v;
            edges += degree(v);
          }
        }
      }
    } else {
      std::tie(next_size, edges) = in_parallel([&, depth, level, rp, ci](std::vector<int32_t>& mine) {
        int64_t found_edges = 0;
#pragma omp for schedule(dynamic, 256)
        for (int64_t f = 0; f < size; ++f) {
          const int32_t u = frontier[f];
          for (int64_t k = rp[u]; k < rp[u + 1]; ++k) {
            const int32_t v = ci[k];
            std::atomic_ref<int32_t> lv(level[v]);
            int32_t unseen = -1;
            if (lv.load(std::memory_order_relaxed) == -1 && lv.compare_exchange_strong(unseen, depth)) {
              mine.push_back(v);
              found_edges += degree(v);
            }
          }
        }
        return found_edges;
      });
    }
    a.reached_edges += edges;
    unexplored -= edges;
    frontier_edges = edges;
    std::swap(frontier, next);
    size = next_size;
  }
  return a;
}

}  // namespace hpcjudge::reference
