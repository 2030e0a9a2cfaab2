// The timing loop, as a library (cf. Google Benchmark): warm up, then repeat
// until the standard error of the mean is below a fraction of the mean or the
// case's wall-clock budget is spent. The caller measures each run (monotonic
// clock on the CPU, device events on the GPU) and hands the seconds in:
//
//   TimingLoop loop(policy);
//   while (loop.want_more()) loop.add(run_once());
//   Stats s = loop.stats();
#pragma once
#include <chrono>
#include <cstddef>
#include <vector>

namespace hpcjudge {

struct TimingPolicy {
  int warmup_runs = 1;           // measured, then discarded
  int min_runs = 3;              // before the stopping rule may stop the loop
  int max_runs = 1000;
  double target_rel_sem = 0.01;  // stop once sem / mean falls below this
  double budget_s = 3.0;         // wall-clock budget of the whole loop, warm-up included
};

struct Stats {
  size_t runs = 0;
  double mean = 0, median = 0, min = 0, max = 0, stddev = 0, sem = 0;
  // Relative spread: sample standard deviation over the mean.
  double spread() const { return mean > 0 ? stddev / mean : 0; }
  static Stats of(std::vector<double> samples);
};

class TimingLoop {
 public:
  explicit TimingLoop(TimingPolicy policy);
  // True while the next run is a warm-up run (its time is discarded).
  bool warming_up() const { return warmups_done_ < policy_.warmup_runs; }
  bool want_more() const;
  void add(double seconds);
  const std::vector<double>& samples() const { return samples_; }
  Stats stats() const { return Stats::of(samples_); }
  // Why the loop stopped: "converged", "budget" or "max runs".
  const char* stop_reason() const;

 private:
  bool converged() const;
  double elapsed() const;
  TimingPolicy policy_;
  int warmups_done_ = 0;
  std::vector<double> samples_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hpcjudge
