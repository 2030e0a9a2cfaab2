#include "timing.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hpcjudge {

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
  return s;
}

TimingLoop::TimingLoop(TimingPolicy policy) : policy_(policy), start_(std::chrono::steady_clock::now()) {}

double TimingLoop::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool TimingLoop::converged() const {
  if (static_cast<int>(samples_.size()) < std::max(policy_.min_runs, 2)) return false;
  const Stats s = stats();
  return s.mean > 0 && s.sem < policy_.target_rel_sem * s.mean;
}

bool TimingLoop::want_more() const {
  if (warming_up()) return true;
  const int n = static_cast<int>(samples_.size());
  if (n >= policy_.max_runs) return false;
  if (n < policy_.min_runs) return true;
  return !converged() && elapsed() < policy_.budget_s;
}

void TimingLoop::add(double seconds) {
  if (warming_up()) {
    ++warmups_done_;
    return;
  }
  samples_.push_back(seconds);
}

const char* TimingLoop::stop_reason() const {
  if (converged()) return "converged";
  if (static_cast<int>(samples_.size()) >= policy_.max_runs) return "max runs";
  return "budget";
}

}  // namespace hpcjudge
