#include "judge/estimate/grade_estimate.h"

#include "judge/estimate/estimate.h"
#include "judge/estimate/reference_counts.h"

namespace hpcjudge {

nlohmann::json estimate_grade(const Problem& p, const Paths& paths, const GradeOptions& opt,
                              const SessionOptions& session, const std::string& machine_fingerprint,
                              const EstimateCases& cases, const std::optional<protocol::EmulationCounts>& counts,
                              Listener& listener) {
  const GpuModel* gpu = find_gpu_model(opt.gpu_model);
  if (!gpu) gpu = find_gpu_model(kDefaultGpuModel);
  if (!counts) {
    Estimate none;
    none.gpu = gpu;
    none.cases = cases;
    none.note = "the emulated case " + cases.emulated.name + " was not run, so nothing was counted";
    return none.to_json();
  }
  Estimate e = estimate_submission(p, *gpu, cases, *counts);
  listener.note("estimating the GPU's time: the fast and baseline references counted under emulation on " +
                cases.emulated.name);
  std::optional<double>* sides[2] = {&e.fast_s, &e.baseline_s};
  const char* roles[2] = {"fast", "baseline"};
  for (int k = 0; k < 2; ++k) {
    const ReferenceCounts rc = reference_counts(p, paths, opt, session, roles[k], cases.emulated, machine_fingerprint);
    if (!rc.counts) {
      e.note = std::string("no estimated score: the ") + roles[k] + " reference could not be counted (" + rc.why + ")";
      return e.to_json();
    }
    *sides[k] = estimate_reference(*gpu, cases, *rc.counts);
  }
  estimate_score(p, e);
  return e.to_json();
}

}  // namespace hpcjudge
