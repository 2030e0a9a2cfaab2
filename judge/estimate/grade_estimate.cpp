#include "judge/estimate/grade_estimate.h"

#include "judge/estimate/estimate.h"
#include "judge/estimate/reference_counts.h"
#include "judge/estimate/registers.h"
#include "judge/files.h"
#include "judge/timing/score.h"

namespace hpcjudge {

namespace {

// A reference's kernels' registers for `arch` (none where nvcc cannot give them: the estimate goes on without).
KernelRegisters reference_registers(const Problem& p, const Paths& paths, const GradeOptions& opt,
                                    const std::string& role, const std::string& arch, const std::string& fingerprint) {
  const std::filesystem::path src = reference_solution(p, paths, role);
  std::string source;
  try {
    source = read_regular_file(src, kMaxSourceBytes);
  } catch (const std::exception&) {
    return {};
  }
  return nvcc_registers(p, paths, opt, source, src.string(), role, arch, fingerprint).registers.value_or(KernelRegisters{});
}

}  // namespace

nlohmann::json estimate_grade(const Problem& p, const Paths& paths, const GradeOptions& opt,
                              const SessionOptions& session, const std::string& machine_fingerprint,
                              const EstimateCases& cases, const CaseCounts& counted,
                              const SubmissionSource& submission, Listener& listener) {
  const GpuModel* gpu = find_gpu_model(opt.gpu_model);
  if (!gpu) gpu = find_gpu_model(kDefaultGpuModel);
  const std::optional<protocol::EmulationCounts>& counts = counted.counts;
  if (!counts) {
    Estimate none;
    none.gpu = gpu;
    none.cases = cases;
    none.note = "no estimate: the emulated case " + cases.emulated.name + " could not be counted (" + counted.why + ")";
    return none.to_json();
  }
  listener.note("estimating the GPU's time: the submission's registers from nvcc for " + gpu->arch);
  const RegistersFound regs = nvcc_registers(p, paths, opt, submission.text, submission.shown, "", gpu->arch,
                                             machine_fingerprint);
  Estimate e = estimate_submission(p, *gpu, cases, *counts, regs.registers.value_or(KernelRegisters{}));
  e.registers_from = regs.registers ? "ptxas, nvcc -arch=" + gpu->arch : "not known (" + regs.why + ")";
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
    // The references' registers only where the submission's are known: the two sides of the ratio modelled alike.
    const KernelRegisters rr = regs.registers ? reference_registers(p, paths, opt, roles[k], gpu->arch,
                                                                    machine_fingerprint)
                                              : KernelRegisters{};
    *sides[k] = estimate_reference(*gpu, cases, *rc.counts, rr);
  }
  estimate_score(p, e);
  return e.to_json();
}

}  // namespace hpcjudge
