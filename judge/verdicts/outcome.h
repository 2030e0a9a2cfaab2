// The outcome -> verdict mapping: how a call ended (judge/isolation/call_outcome.h) as a verdict, and a checked
// call's verdict with its figures (Checked). A call that ended normally is AC here; its outputs decide then
// (judge/grading/laid_case.h: judge_call).
#pragma once
#include <optional>
#include <string>

#include "judge/isolation/call_outcome.h"
#include "judge/verdicts/verdict.h"

namespace hpcjudge {

struct Checked {
  Verdict verdict = Verdict::AC;
  std::string message;
  double max_abs = 0, max_rel = 0;
  std::string summary = {};  // a wrong answer's concise form (Verification::summary)
};

// A call that did not return normally, as a verdict: a time limit TLE, memory MLE (judge/verdicts/memory_limit.h),
// a crash or error RE, or JE where it was the set-up's fault (judge/verdicts/judge_error.h).
std::optional<Checked> failed_call(const CallOutcome& o);

// Whether what the runner did after a call (Session::after_call) may still change the call's verdict: a
// functional test's unless the call itself ended the runner (RE, TLE); a timed run's only over an AC.
bool after_call_counts(const Checked& ck, bool timed);

}  // namespace hpcjudge
