// Which cases an emulated estimate uses: the case the emulator runs (small enough to emulate) and the performance
// case it models, and the scaling between them (kernel_time.h, Scaling).
#pragma once
#include <optional>
#include <string>

#include "judge/estimate/kernel_time.h"
#include "sdk/problem.h"

namespace hpcjudge {

struct EstimateCases {
  // ProblemInfo::estimate_case, else the largest functional test under the emulation limits drawn by the modelled
  // case's generator, else the largest under them.
  Case emulated;
  Case modelled;  // the performance case with the most work (FLOPs, else bytes): the validation's case
  Scaling scale;  // the modelled case's work and traffic over the emulated case's
  double modelled_flops = 0;
};

// None where the problem has no performance case or no functional test small enough to emulate.
std::optional<EstimateCases> estimate_cases(const Problem& p);

}  // namespace hpcjudge
