// The allclose checker: an element passes when
//   |got - expected| <= atol + rtol * |expected|,
// and NaN or +-Inf in either must match exactly (NaN with NaN, +Inf with +Inf).
// The result names the first mismatches and the largest errors.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sdk/bytes.h"

namespace hpcjudge {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

struct Mismatch {
  size_t index = 0;
  double expected = 0;
  double got = 0;
};

struct CheckResult {
  size_t checked = 0;
  size_t mismatches = 0;
  std::vector<Mismatch> first;  // the first few, in index order
  double max_abs_err = 0;       // over elements where both are finite
  double max_rel_err = 0;       // |got - expected| / |expected|, expected finite and non-zero
  size_t max_abs_index = 0;
  // The mismatch furthest outside the tolerance (its error over the error allowed
  // there), among those where both values are finite; none when every mismatch is
  // a NaN or an infinity. Exact checks leave `tolerance` empty.
  std::optional<Mismatch> worst;
  std::optional<Tolerance> tolerance;
  bool per_element = false;  // the tolerance had a per-element bound added to atol
  double worst_allowed = 0;  // the error allowed at `worst`
  // got / expected over the mismatches where both are finite and expected is not 0: how many, the lowest and the
  // highest (summarize()'s common factor).
  size_t ratios = 0;
  double ratio_lo = 0, ratio_hi = 0;
  bool ok() const { return mismatches == 0; }
  void note_ratio(double got, double expected) {
    if (!(std::isfinite(got) && std::isfinite(expected) && expected != 0)) return;
    const double k = got / expected;
    ratio_lo = ratios ? std::min(ratio_lo, k) : k;
    ratio_hi = ratios ? std::max(ratio_hi, k) : k;
    ++ratios;
  }
};

bool element_close(double got, double expected, const Tolerance& tol);

// `bound`, where given (one per element), is added to atol element by element:
// an error bound the reference computed for each element (spmv: each row's).
CheckResult check_close(std::span<const float> got, std::span<const double> expected, const Tolerance& tol,
                        size_t keep = 5, std::span<const double> bound = {});

// Exact comparison, for integer outputs (one parallel comparison when all is well).
template <class T>
CheckResult check_exact(std::span<const T> got, std::span<const T> expected, size_t keep = 5) {
  CheckResult r;
  r.checked = got.size();
  if constexpr (std::is_integral_v<T>)  // one comparison on every core when all is well (a GiB of prefix sums)
    if (parallel_equal(reinterpret_cast<const std::byte*>(got.data()),
                       reinterpret_cast<const std::byte*>(expected.data()), got.size_bytes()))
      return r;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == expected[i]) continue;
    if (r.first.size() < keep)
      r.first.push_back({i, static_cast<double>(expected[i]), static_cast<double>(got[i])});
    ++r.mismatches;
    r.note_ratio(static_cast<double>(got[i]), static_cast<double>(expected[i]));
  }
  return r;
}

// "C[3,17] (index 209): expected 0.25, got nan; 41 more; max abs err 3e-2 at ...".
// cols > 0 prints row,column coordinates for a row-major matrix.
std::string describe(const CheckResult& r, const std::string& buffer, size_t cols = 0);

// The same, concise, for a student: a line with the count and the first mismatch, a
// line with the largest error and why the tolerance rejects it ("relative error
// 7.4e-04 > 1.0e-04 allowed there ..."), and, where the pattern says something, a
// line "hint: ..." (every wrong element off by one common factor, precision lost in a
// float sum, an element never written, an overflow). Lines joined by '\n'.
std::string summarize(const CheckResult& r, const std::string& buffer, size_t cols = 0);

// A number as the reports print it: shortest form that round-trips a float.
std::string format_value(double v);

}  // namespace hpcjudge
