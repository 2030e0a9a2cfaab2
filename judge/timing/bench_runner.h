// The performance cases' timing (cf. Google Benchmark's benchmark_runner.cc): each case laid out, its loop's
// policy (judge/timing/budget.h), then run after run -- fresh inputs, every side's call in the run's order
// (judge/timing/rivals.h), the submission's call checked -- until the stopping rule (judge/timing/loop.h) says
// enough; then its figures, its ratios and the FAIL checks on its times (judge/verdicts/forgery.h).
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "sdk/problem.h"
#include "judge/grading/grade_options.h"
#include "judge/paths.h"
#include "judge/isolation/scheduling.h"
#include "judge/isolation/session.h"
#include "judge/timing/peaks_in_use.h"
#include "judge/timing/rivals.h"

namespace hpcjudge {

// What a grade hands the timing of its performance cases.
struct BenchContext {
  const Problem& p;
  const GradeOptions& opt;
  const Paths& paths;
  PeaksInUse& peaks;
  Session& s;                  // the submission's timed runner
  Rivals* rivals;              // the references beside it, or null
  const std::optional<Scheduling>& judge_thread;  // how the judge's timing thread ran as the grade began
  Report& r;
  Listener& listener;
  std::function<double()> grade_s;  // the grade's wall time so far (a GPU grade's budgets share it)
};

// The performance cases a grade times on this machine: those its cores allow, or the one asked for.
std::vector<Case> timed_cases(const Problem& p, const GradeOptions& opt, const MachineInfo& m);

// Times every case of timed_cases(), heaviest first (judge/timing/budget.h: heaviest_first), and reports each in
// the problem's order (Report::bench); the first failing case ends the timing and gives the report its verdict.
void run_bench(const BenchContext& ctx);

}  // namespace hpcjudge
