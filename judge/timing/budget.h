// A timing loop's budgets within a grade: the GPU grade's shared wall time, the side-by-side stretch, and the
// order the performance cases are timed in.
#pragma once
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "sdk/timing.h"

namespace hpcjudge {

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

// One performance case's loop within a grade: the problem's policy, its budget shared with the cases still to
// time on a GPU grade (`gpu`: shared_case_budget, after `looped_s` of loops, `cases_left` cases this one included,
// `grade_s` of the grade's wall time), and side by side (`rivals` > 0) enough runs for the ratios too, within a
// stretch of the case's own budget, in whole cycles of the calls' order (`cycle`: call_order_cycle()).
inline TimingPolicy case_policy(TimingPolicy policy, bool gpu, size_t rivals, size_t cycle, double looped_s,
                                int cases_left, double grade_s) {
  const double own_budget_s = policy.budget_s;
  if (gpu) policy.budget_s = shared_case_budget(policy.budget_s, looped_s, cases_left, grade_s);
  if (rivals > 0) {
    policy.min_runs = std::max(policy.min_runs, kSideBySideMinRuns);
    policy.hard_budget_s = kSideBySideHardBudget * own_budget_s;
    policy.cycle = static_cast<int>(cycle);
  }
  return policy;
}

}  // namespace hpcjudge
