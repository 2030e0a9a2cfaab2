// TLE: the time limits a grade holds a submission to. A call past its limit is killed by the session
// (CallOutcome::TimedOut, TLE in judge/verdicts/outcome.h); the functional tests together have a limit too.
#pragma once
#include <optional>
#include <string>

#include "sdk/problem.h"

namespace hpcjudge {

// Under emulation the per-call and all-tests limits are this many times the problem's.
inline constexpr double kEmulatedTimeScale = 4;

// A functional test's per-call limit, and all of them together's.
double test_call_limit_s(const ProblemInfo& info, bool emulated);
double tests_limit_s(const ProblemInfo& info, bool emulated);

// The functional tests' solve() time so far (`spent_s`, up to test `test`) past the limit for all of them: the
// TLE message, or none. Calls each under the per-call limit cannot add up to hours.
std::optional<std::string> tests_past_limit(double spent_s, const std::string& test, const ProblemInfo& info,
                                            bool emulated);

}  // namespace hpcjudge
