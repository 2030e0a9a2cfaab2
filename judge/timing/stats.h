// The statistics of a timing loop's samples: the median, its distribution-free interval, the mean's standard
// error (the stopping rule's measure: judge/timing/loop.h).
#pragma once
#include <cstddef>
#include <vector>

namespace hpcjudge {

// A distribution-free interval of a median: the order statistics around the
// middle rank that hold the true median with about 95% confidence (binomial
// ranks, normal approximation); the whole range under 6 samples.
struct Interval {
  double lo = 0, hi = 0;
  double half_width() const { return 0.5 * (hi - lo); }
};
Interval median_interval(std::vector<double> samples);

struct Stats {
  size_t runs = 0;
  double mean = 0, median = 0, min = 0, max = 0, stddev = 0, sem = 0;
  Interval median_ci;  // median_interval() of the samples
  // Relative spread: sample standard deviation over the mean.
  double spread() const { return mean > 0 ? stddev / mean : 0; }
  static Stats of(std::vector<double> samples);
};

}  // namespace hpcjudge
