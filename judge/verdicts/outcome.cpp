#include "judge/verdicts/outcome.h"

#include "judge/verdicts/judge_error.h"

namespace hpcjudge {

std::optional<Checked> failed_call(const CallOutcome& o) {
  switch (o.status) {
    case CallOutcome::Ok: return std::nullopt;
    case CallOutcome::TimedOut: return Checked{Verdict::TLE, o.message};
    case CallOutcome::OutOfMemory: return Checked{Verdict::MLE, o.message};
    case CallOutcome::Crashed:
    case CallOutcome::Error: return Checked{crash_verdict(o), o.message};
  }
  return std::nullopt;
}

bool after_call_counts(const Checked& ck, bool timed) {
  if (timed) return ck.verdict == Verdict::AC;
  return ck.verdict != Verdict::RE && ck.verdict != Verdict::TLE;
}

}  // namespace hpcjudge
