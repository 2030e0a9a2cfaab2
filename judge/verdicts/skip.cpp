#include "judge/verdicts/skip.h"

#include "judge/verdicts/report_verdict.h"

namespace hpcjudge {

void skip_without_nvcc(Report& r) {
  set_verdict(r, Verdict::SKIP, "", "the judge was built without the CUDA toolkit (no nvcc)");
}

void skip_without_device(Report& r, const GpuProbe& device) {
  set_verdict(r, Verdict::SKIP, "", no_device_message(device));
  r.machine.gpu["error"] = device.error;  // the CUDA runtime's own words, for the --json report
  r.score.note = "your file compiles; to run and score it, judge it on a machine with an NVIDIA GPU "
                 "(a CPU problem runs here: ./judge/judge list)";
}

}  // namespace hpcjudge
