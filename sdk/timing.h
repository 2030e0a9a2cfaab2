// What the problem SDK and the runner share of timing: a problem's declared timing policy (ProblemInfo::timing),
// the stopwatch of the judge's and the runner's own phases, and HPCJUDGE_TRACE. The timing rules themselves (the
// loop and its stopping rule, the interval, the budgets, rivals, the score) are the judge's: judge/timing/.
#pragma once
#include <chrono>
#include <cstdlib>

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

// How a problem's performance case is timed (judge/timing/loop.h runs it; judge/timing/budget.h may shorten or
// stretch it within a grade).
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

}  // namespace hpcjudge
