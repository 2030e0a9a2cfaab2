// One counted call (Request::count_accesses) of the estimate's emulated case, in a runner already started: the
// submission's, after its functional tests, and each reference's. Never one of the functional tests' calls: counting
// slows the emulator down, and a call the judge made slower must not be the one that decides a verdict (TLE).
#pragma once
#include <optional>
#include <string>

#include "judge/grading/grade_options.h"
#include "judge/isolation/session.h"
#include "judge/paths.h"
#include "protocol/emulation_counts.h"
#include "sdk/problem.h"

namespace hpcjudge {

struct CaseCounts {
  std::optional<protocol::EmulationCounts> counts;
  std::string why;  // where there are none: why (its runner, its call)
};

// Counting slows the emulator down, tens of times where each lane makes ~10^5 accesses between barriers (the
// flash-attention baseline on dk256: past 80 s counted, 2.2 s not, 2-core VM): a counted call gets this many times
// an emulated functional test's limit; past it the estimate says why it has none.
inline constexpr double kCountedTimeScale = 4;

// Lays out case `c` in `s` (started), with its inputs of input set 0, and calls it once, counting.
CaseCounts count_case(const Problem& p, const Paths& paths, const GradeOptions& opt, Session& s, const Case& c);

}  // namespace hpcjudge
