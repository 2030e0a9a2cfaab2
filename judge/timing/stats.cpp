#include "judge/timing/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hpcjudge {

Interval median_interval(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n < 6) return {v.front(), v.back()};
  // Ranks (1-based) n/2 -+ 1.96 sqrt(n)/2: the binomial(n, 1/2) interval.
  const double half = 0.98 * std::sqrt(static_cast<double>(n));
  const auto lo = static_cast<size_t>(std::max(1.0, std::floor(0.5 * static_cast<double>(n) - half)));
  const auto hi = static_cast<size_t>(std::min(static_cast<double>(n), std::ceil(0.5 * static_cast<double>(n) + 1 + half)));
  return {v[lo - 1], v[hi - 1]};
}

Stats Stats::of(std::vector<double> v) {
  Stats s;
  s.runs = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  if (n > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(ss / (n - 1));
    s.sem = s.stddev / std::sqrt(static_cast<double>(n));
  }
  s.median_ci = median_interval(std::move(v));
  return s;
}

}  // namespace hpcjudge
