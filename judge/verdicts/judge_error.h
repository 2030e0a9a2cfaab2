// JE: the judge's own fault, never the submission's (a runner or compiler that could not start here, a child
// judge that did not finish, an exception in the judge). Never kept as current, never ranked.
#pragma once
#include <string>

#include "judge/isolation/call_outcome.h"
#include "judge/verdicts/verdict.h"

namespace hpcjudge {

// A crashed or failed call: RE, or JE where the runner ended before the submission's library was asked for
// (CallOutcome::judge_fault: no code of the submission's had run).
Verdict crash_verdict(const CallOutcome& o);

// A compile that failed: JE where the runner launched beside it could not start either (`launch`, or null: a
// sandbox that cannot start fails the compiler's alike, so the set-up is at fault), else CE.
Verdict failed_compile_verdict(const CallOutcome* launch);

}  // namespace hpcjudge
