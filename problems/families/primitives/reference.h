// The parallel primitives (prefix-sum, reduction, merge), exactly: integer work
// in 64-bit integers, the float sum in double. Each runs in parallel (OpenMP),
// fast enough for the fresh inputs of every timed call at 2^28 elements.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace hpcjudge::reference {

// y[i] = x[0] + ... + x[i]; throws std::range_error if a prefix leaves int32.
void inclusive_scan(std::span<const int32_t> x, std::span<int32_t> y);

// The sum of x in double (exact for the exactly representable inputs, and within
// n * 2^-53 * sum |x| otherwise), and sum |x| beside it.
struct Sum {
  double sum = 0;
  double abs_sum = 0;
};
Sum sum(std::span<const float> x);

// The merge of two ascending arrays into c (a.size() + b.size() elements).
void merge(std::span<const int32_t> a, std::span<const int32_t> b, std::span<int32_t> c);

// The co-rank of output position k (0 <= k <= a.size() + b.size()): the number i of
// elements of a among the first k of the merge that takes ties from a first.
int64_t co_rank(int64_t k, std::span<const int32_t> a, std::span<const int32_t> b);

}  // namespace hpcjudge::reference
