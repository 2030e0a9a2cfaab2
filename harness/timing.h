// The timing loop, as a library (cf. Google Benchmark): warm up, then repeat
// until the standard error of the mean is below a fraction of the mean or the
// case's wall-clock budget is spent. The caller measures each run (monotonic
// clock on the CPU, device events on the GPU) and hands the seconds in:
//
//   TimingLoop loop(policy);
//   while (loop.want_more()) loop.add(run_once());
//   Stats s = loop.stats();
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "settings/settings.h"

namespace hpcjudge {

// Wall time on the monotonic clock, in laps: the one stopwatch of the judge's own phases (never a score's clock,
// which is the session's exchange).
class Stopwatch {
 public:
  double lap() {  // seconds since the last lap (or the start)
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }
  double elapsed() const {  // seconds since the last lap (or the start), without starting a new one
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count();
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// HPCJUDGE_TRACE: lines on stderr saying where the judge's and the runner's time goes (a call's interval, a
// timed run's steps, a functional test's): diagnostics, never part of a score.
inline bool tracing() {
  static const bool on = settings::Settings::at_start().is_set(settings::kTrace);
  return on;
}

struct TimingPolicy {
  int warmup_runs = 1;           // measured, then discarded
  int min_runs = 3;              // before the stopping rule may stop the loop
  int max_runs = 1000;
  double target_rel_sem = 0.01;  // stop once sem / mean falls below this
  double budget_s = 3.0;         // wall-clock budget of the whole loop, warm-up included
  // Past this, the loop stops even below min_runs (never below 3 runs); 0: no such limit.
  double hard_budget_s = 0;
  // Timed runs come in cycles of this many (side by side: the calls' order, call_order()): a loop that would
  // stop inside a cycle runs on to its end, unless max_runs or the hard budget stops it.
  int cycle = 1;
};

// Side by side, a ratio wants more runs than a time alone: at least this many
// (each case's budget may stretch to kSideBySideHardBudget times for them).
inline constexpr int kSideBySideMinRuns = 10;
inline constexpr double kSideBySideHardBudget = 4;

// A GPU grade's timing loops share this much wall time (issue 16: a whole grade in
// under 10 s): each case's budget is at most what is left divided among the cases
// still to time (never under kMinCaseBudgetS), so a case that converges early leaves
// its time to the next. Its own budget (TimingPolicy::budget_s) stays the cap, and
// the side-by-side stretch for kSideBySideMinRuns is taken from its own budget.
// The share is also at most what is left before kGpuTimingEndsByS of the grade's
// wall time, divided likewise, so that a grade whose compile, tests and per-case
// lay-out take long (spmv: 2.5 s to compile, 2.1 s of setup()) times its cases in
// less (on the H200 the grade ended about 1 s after its last timing loop).
inline constexpr double kGpuTimingBudgetS = 5.0;
inline constexpr double kGpuTimingEndsByS = 8.8;
inline constexpr double kMinCaseBudgetS = 0.5;

// The budget of the next case to time, of `left` (this one included), after `spent` s of the grade's loops
// and `grade_s` s of the grade's wall time.
inline double shared_case_budget(double own_budget_s, double spent_s, int left, double grade_s = 0) {
  const double share = std::min(kGpuTimingBudgetS - spent_s, kGpuTimingEndsByS - grade_s) / std::max(left, 1);
  return std::min(own_budget_s, std::max(share, kMinCaseBudgetS));
}

// The order a grade times its performance cases in: heaviest first (`bytes`: each case's buffers), ties in the
// problem's order. The heaviest has the longest host work a run, so it needs the most time for its minimum of
// runs; the lighter ones after it share what is left (shared_case_budget).
inline std::vector<size_t> heaviest_first(const std::vector<size_t>& bytes) {
  std::vector<size_t> order(bytes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  return order;
}

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

// Side by side: each run may time rivals too (the problem's reference
// solutions, called right before or after on the same inputs). The loop then
// keeps, per rival, the log of each run's ratio (the run's time over the
// rival's), and converges only once the mean of every rival's log ratios is
// known to the same relative precision as the mean time: a ratio measured in
// one run, with the machine's drift common to both sides.
class TimingLoop {
 public:
  explicit TimingLoop(TimingPolicy policy, size_t rivals = 0);
  // True while the next run is a warm-up run (its time is discarded).
  bool warming_up() const { return warmups_done_ < policy_.warmup_runs; }
  bool want_more() const;
  // One run; `rival_seconds` holds each rival's time of the same run (all or none).
  void add(double seconds, const std::vector<double>& rival_seconds = {});
  // A rival that failed or was withdrawn: its ratios no longer hold the loop.
  void drop_rival(size_t k);
  const std::vector<double>& samples() const { return samples_; }
  // ln(t_run / t_rival) for each timed run, of rival k.
  const std::vector<double>& log_ratios(size_t k) const { return log_ratios_[k]; }
  Stats stats() const { return Stats::of(samples_); }
  // Why the loop stopped: "converged", "budget" or "max runs".
  const char* stop_reason() const;
  // How far the loop is, for a progress line: runs made (warm-up included), the wall time so far, and about how
  // much more it takes at most (the runs it must still make at the pace so far, or what is left of its budget,
  // whichever is longer; convergence may end it sooner).
  struct Progress {
    int runs = 0;
    double elapsed_s = 0, left_s = 0;
  };
  Progress progress() const;

 private:
  bool converged() const;
  double elapsed() const;
  TimingPolicy policy_;
  int warmups_done_ = 0;
  std::vector<double> samples_;
  std::vector<std::vector<double>> log_ratios_;
  std::vector<bool> dropped_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hpcjudge
