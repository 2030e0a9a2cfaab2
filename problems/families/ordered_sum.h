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

// add(acc, i) adds term i into acc (a T that starts as T{}); combine(acc, part) adds a chunk's sum. Lanes > 1:
// within a chunk, term i goes to accumulator i % Lanes, combined in lane order at the chunk's end (still one
// order on any number of threads): independent additions, where one accumulator is a chain of dependent ones
// (reduction's 10^8 terms took 50 ms of each run on the H200's host with one).
template <class T, int Lanes = 1, class Add, class Combine>
T ordered_sum(int64_t n, Add add, Combine combine) {
  constexpr int64_t kChunk = int64_t{1} << 16;
  static_assert(Lanes >= 1 && kChunk % Lanes == 0, "a chunk holds whole rounds of the lanes");
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<T> part(static_cast<size_t>(chunks), T{});
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int64_t c = 0; c < chunks; ++c) {
    T acc[Lanes]{};
    const int64_t first = c * kChunk, last = std::min(n, (c + 1) * kChunk);
    int64_t i = first;
    for (; i + Lanes <= last; i += Lanes)
      for (int l = 0; l < Lanes; ++l) add(acc[l], i + l);
    for (int l = 0; i < last; ++i, ++l) add(acc[l], i);
    for (int l = 1; l < Lanes; ++l) combine(acc[0], acc[l]);
    part[static_cast<size_t>(c)] = acc[0];
  }
  T total{};
  for (const T& p : part) combine(total, p);
  return total;
}

}  // namespace hpcjudge::reference
