// A sum on every core that is the same on any number of threads and on every run: the terms in fixed chunks
// of 2^16, each chunk summed in order, then the chunks' sums added in order. An OpenMP reduction is not: it
// splits the terms by the team's size and adds the threads' partial sums in the order the threads finish, so
// a floating-point reference answer changed in its last bits from run to run (softmax's, seen as two answers
// for one input set when one was computed on a thread of the judge's beside the other).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace hpcjudge::reference {

// add(acc, i) adds term i into acc (a T that starts as T{}); combine(acc, part) adds a chunk's sum.
template <class T, class Add, class Combine>
T ordered_sum(int64_t n, Add add, Combine combine) {
  constexpr int64_t kChunk = int64_t{1} << 16;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<T> part(static_cast<size_t>(chunks), T{});
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int64_t c = 0; c < chunks; ++c) {
    T acc{};
    for (int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) add(acc, i);
    part[static_cast<size_t>(c)] = acc;
  }
  T total{};
  for (const T& p : part) combine(total, p);
  return total;
}

}  // namespace hpcjudge::reference
