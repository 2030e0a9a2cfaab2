// JE: the judge's own fault, never the submission's (a runner or compiler that could not start here, a child
// judge that did not finish, an exception in the judge). Never kept as current, never ranked.
#pragma once
#include <optional>
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

// A performance case whose timed calls were at most the channel's round trip (`subtracted_s`) in half of `runs` or
// more, so that their median is 0 once it is taken off: the judge's clock could not resolve the calls here (another
// process time-slicing the GPU; a case too small for this machine), so no ratio of them means anything. JE's
// message, or none. A score from such a case would rank noise (a cheat scored 112 beside its twin's 59 so).
std::optional<std::string> unresolved_timing(double median_s, size_t runs, double subtracted_s);

}  // namespace hpcjudge
