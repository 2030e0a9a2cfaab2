#include "judge/verdicts/judge_error.h"

namespace hpcjudge {

Verdict crash_verdict(const CallOutcome& o) { return o.judge_fault ? Verdict::JE : Verdict::RE; }

Verdict failed_compile_verdict(const CallOutcome* launch) {
  return launch && launch->judge_fault ? Verdict::JE : Verdict::CE;
}

}  // namespace hpcjudge
