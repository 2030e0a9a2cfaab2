#include "reference/primitives.h"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "reference/ordered_sum.h"

namespace hpcjudge::reference {

namespace {
constexpr int64_t kChunk = 1 << 16;  // elements per parallel chunk
constexpr int64_t kParallel = 1 << 16;
}  // namespace

void inclusive_scan(std::span<const int32_t> x, std::span<int32_t> y) {
  const auto n = static_cast<int64_t>(x.size());
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<int64_t> offset(static_cast<size_t>(chunks) + 1, 0);
#pragma omp parallel for schedule(static) if (n > kParallel)
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t s = 0;
    for (int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) s += x[i];
    offset[c + 1] = s;
  }
  for (int64_t c = 0; c < chunks; ++c) offset[c + 1] += offset[c];
  bool fits = true;
#pragma omp parallel for schedule(static) reduction(&& : fits) if (n > kParallel)
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t s = offset[c];
    for (int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
      s += x[i];
      fits = fits && s >= std::numeric_limits<int32_t>::min() && s <= std::numeric_limits<int32_t>::max();
      y[i] = static_cast<int32_t>(s);
    }
  }
  if (!fits) throw std::range_error("a prefix sum leaves int32: the generator broke its bound");
}

Sum sum(std::span<const float> x) {
  const auto n = static_cast<int64_t>(x.size());
  return ordered_sum<Sum>(
      n,
      [&](Sum& acc, int64_t i) {
        acc.sum += x[i];
        acc.abs_sum += x[i] < 0 ? -static_cast<double>(x[i]) : x[i];
      },
      [](Sum& total, const Sum& part) {
        total.sum += part.sum;
        total.abs_sum += part.abs_sum;
      });
}

int64_t co_rank(int64_t k, std::span<const int32_t> a, std::span<const int32_t> b) {
  const auto m = static_cast<int64_t>(a.size()), n = static_cast<int64_t>(b.size());
  // The first k of the merge are a[0, i) and b[0, k - i) for the largest i with
  // a[i - 1] <= b[k - i] (ties from a first): binary search on i.
  int64_t lo = std::max<int64_t>(0, k - n), hi = std::min(k, m);
  while (lo < hi) {
    const int64_t i = (lo + hi + 1) / 2;  // a[i - 1] is taken when it is <= b[k - i]
    if (a[i - 1] <= b[k - i]) lo = i;
    else hi = i - 1;
  }
  return lo;
}

void merge(std::span<const int32_t> a, std::span<const int32_t> b, std::span<int32_t> c) {
  const auto total = static_cast<int64_t>(c.size());
  if (total != static_cast<int64_t>(a.size() + b.size())) throw std::logic_error("merge: c has the wrong size");
  const int64_t parts = total > kParallel ? std::min<int64_t>(total / kChunk + 1, 8 * omp_get_max_threads()) : 1;
#pragma omp parallel for schedule(dynamic) if (parts > 1)
  for (int64_t p = 0; p < parts; ++p) {
    const int64_t k0 = total * p / parts, k1 = total * (p + 1) / parts;
    const int64_t i0 = co_rank(k0, a, b), i1 = co_rank(k1, a, b);
    std::merge(a.begin() + i0, a.begin() + i1, b.begin() + (k0 - i0), b.begin() + (k1 - i1), c.begin() + k0);
  }
}

}  // namespace hpcjudge::reference
