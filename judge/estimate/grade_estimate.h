// An emulated grade's estimate (estimate.h), put together: the submission's counts on the emulated case, the
// fast reference's and the baseline's counted the same way in runners of their own, the times and the score.
#pragma once
#include <optional>
#include <string>

#include "judge/estimate/count_case.h"
#include "judge/estimate/estimate_case.h"
#include "judge/grading/grade_options.h"
#include "judge/isolation/session.h"
#include "protocol/emulation_counts.h"

namespace hpcjudge {

// The submission's text, and its path as the student gave it (what nvcc's messages name).
struct SubmissionSource {
  const std::string& text;
  std::string shown;
};

// The report's `emulation.estimate` (Estimate::to_json): the model `opt.gpu_model`; references' runners with
// `session`'s options. `counted`: the submission's counts (count_case.h), or why there are none. Each side's
// kernels' registers from nvcc for the model's architecture where nvcc is here (registers.h), else the occupancy
// without.
nlohmann::json estimate_grade(const Problem& p, const Paths& paths, const GradeOptions& opt,
                              const SessionOptions& session, const std::string& machine_fingerprint,
                              const EstimateCases& cases, const CaseCounts& counted,
                              const SubmissionSource& submission, Listener& listener);

}  // namespace hpcjudge
