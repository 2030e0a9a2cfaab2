// What the emulator counts for one of the judge's reference solutions (the fast one, the baseline) on the
// estimate's emulated case: the other side of the estimated score's ratio, counted as the submission's are.
#pragma once
#include <optional>
#include <string>

#include "judge/estimate/count_case.h"
#include "judge/grading/grade_options.h"
#include "judge/isolation/session.h"
#include "protocol/emulation_counts.h"
#include "sdk/problem.h"

namespace hpcjudge {

using ReferenceCounts = CaseCounts;  // where there are none: why (its compile, its runner, its call)

// Compiles problems/<slug>/solutions/<role>.cu for the emulator (from the compile cache where it was compiled
// before), starts its runner with `session`'s options, lays out case `c` and calls it once, counting; the counts
// cached under <cache>/estimate-counts/, keyed by what they follow from, so a later grade reads them instead.
ReferenceCounts reference_counts(const Problem& p, const Paths& paths, const GradeOptions& opt,
                                 const SessionOptions& session, const std::string& role, const Case& c,
                                 const std::string& machine_fingerprint);

}  // namespace hpcjudge
