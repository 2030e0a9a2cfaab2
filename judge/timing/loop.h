// The timing loop, as a library (cf. Google Benchmark): warm up, then repeat
// until the standard error of the mean is below a fraction of the mean or the
// case's wall-clock budget is spent. The caller measures each run (the judge's
// interval: judge/timing/interval.h) and hands the seconds in:
//
//   TimingLoop loop(policy);
//   while (loop.want_more()) loop.add(run_once());
//   Stats s = loop.stats();
#pragma once
#include <chrono>
#include <cstddef>
#include <vector>

#include "sdk/timing.h"
#include "judge/timing/stats.h"

namespace hpcjudge {

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
