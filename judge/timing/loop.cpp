#include "judge/timing/loop.h"

#include <algorithm>
#include <cmath>

namespace hpcjudge {

TimingLoop::TimingLoop(TimingPolicy policy, size_t rivals)
    : policy_(policy), log_ratios_(rivals), dropped_(rivals, false), start_(std::chrono::steady_clock::now()) {}

double TimingLoop::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool TimingLoop::converged() const {
  if (static_cast<int>(samples_.size()) < std::max(policy_.min_runs, 2)) return false;
  const Stats s = stats();
  if (!(s.mean > 0 && s.sem < policy_.target_rel_sem * s.mean)) return false;
  // A log ratio's standard error is the ratio's relative one.
  for (size_t k = 0; k < log_ratios_.size(); ++k)
    if (!dropped_[k] && Stats::of(log_ratios_[k]).sem >= policy_.target_rel_sem) return false;
  return true;
}

bool TimingLoop::want_more() const {
  if (warming_up()) return true;
  const int n = static_cast<int>(samples_.size());
  if (n >= policy_.max_runs) return false;
  if (policy_.hard_budget_s > 0 && n >= 3 && elapsed() >= policy_.hard_budget_s) return false;
  if (n < policy_.min_runs) return true;
  if (!converged() && elapsed() < policy_.budget_s) return true;
  return policy_.cycle > 1 && n % policy_.cycle != 0;  // the cycle's end
}

void TimingLoop::add(double seconds, const std::vector<double>& rival_seconds) {
  if (warming_up()) {
    ++warmups_done_;
    return;
  }
  samples_.push_back(seconds);
  for (size_t k = 0; k < rival_seconds.size() && k < log_ratios_.size(); ++k)
    if (!dropped_[k] && seconds > 0 && rival_seconds[k] > 0) log_ratios_[k].push_back(std::log(seconds / rival_seconds[k]));
}

void TimingLoop::drop_rival(size_t k) {
  if (k < dropped_.size()) dropped_[k] = true;
}

TimingLoop::Progress TimingLoop::progress() const {
  Progress p;
  p.runs = warmups_done_ + static_cast<int>(samples_.size());
  p.elapsed_s = elapsed();
  if (p.runs == 0) return p;
  const double per_run = p.elapsed_s / p.runs;
  const auto runs_to = [&](int timed) { return std::max(0, policy_.warmup_runs + timed - p.runs) * per_run; };
  double left = std::max(runs_to(policy_.min_runs), policy_.budget_s - p.elapsed_s);
  if (policy_.hard_budget_s > 0) left = std::min(left, std::max(runs_to(3), policy_.hard_budget_s - p.elapsed_s));
  p.left_s = std::max(0.0, std::min(left, runs_to(policy_.max_runs)));
  return p;
}

const char* TimingLoop::stop_reason() const {
  if (converged()) return "converged";
  if (policy_.hard_budget_s > 0 && elapsed() >= policy_.hard_budget_s) return "budget";
  if (static_cast<int>(samples_.size()) >= policy_.max_runs) return "max runs";
  return "budget";
}

}  // namespace hpcjudge
