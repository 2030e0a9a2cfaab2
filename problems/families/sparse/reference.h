// The sparse references: y = A x in double with each row's FP32 error bound
// beside it (spmv), and breadth-first search levels, exactly (bfs). Both run in
// parallel (OpenMP), fast enough for a fresh x or source on every timed call of
// matrices and graphs of 10^8 entries.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sdk/uninitialized.h"

namespace hpcjudge::reference {

// gamma_n = n u / (1 - n u), u = 2^-24: the relative bound (Higham, Accuracy and
// Stability of Numerical Algorithms, 3.1) on a dot product of n FP32 products
// summed in FP32 in any order, against the sum of the products' magnitudes.
double fp32_dot_gamma(int64_t n);

struct SpmvAnswer {
  UninitVector<double> y;      // sum_j A_ij x_j, exact but for double rounding
  UninitVector<double> bound;  // gamma_{len_i} * sum_j |A_ij x_j| (0 for an empty row)
};
SpmvAnswer spmv(std::span<const int32_t> row_ptr, std::span<const int32_t> col_idx, std::span<const float> values,
                std::span<const float> x);

struct BfsAnswer {
  UninitVector<int32_t> level;  // edges on a shortest path from the source, -1 where unreachable
  int64_t reached_edges = 0;   // entries of col_idx in the rows of the reached vertices
};
BfsAnswer bfs(std::span<const int32_t> row_ptr, std::span<const int32_t> col_idx, int32_t source);

}  // namespace hpcjudge::reference
