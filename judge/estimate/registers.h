// Each kernel's registers per thread for an emulated grade's estimate (kernel_time.h's occupancy), as ptxas reports
// them compiling the file with nvcc for the modelled GPU's architecture: the emulator's g++ build has no registers,
// and nvcc needs no GPU, so where nvcc is on the machine the figure is the one the GPU's own compile prints.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/grading/grade_options.h"
#include "judge/grading/kernel_resources.h"
#include "judge/paths.h"
#include "sdk/problem.h"

namespace hpcjudge {

// Registers per thread by kernel: the demangled name without its parameters ("tiled<32>"), as ptxas named it.
using KernelRegisters = std::vector<std::pair<std::string, int>>;

KernelRegisters registers_by_kernel(const std::vector<KernelResources>& kernels);

// A launch's kernel, as the emulator counts it (the callee as written: "tiled<TILE>", "add"), in `registers`: the
// kernel of that exact name, else of that name without its namespaces (an anonymous namespace's kernel is
// qualified by ptxas, not as launched), else the most registers among those of its base name (before '<': a
// template's instantiations; the most, since more registers only lower the occupancy the estimate credits); none
// if absent.
std::optional<int> registers_of(const KernelRegisters& registers, const std::string& launched);

// `source` (the file at `shown`) compiled with nvcc for `arch`, as a GPU grade compiles it (isolated, from the
// compile cache where compiled before; `role` a reference's, else the submission's): its kernels' registers, or
// none where nvcc is absent or the compile failed (`why` says which).
struct RegistersFound {
  std::optional<KernelRegisters> registers;
  std::string why;
};
RegistersFound nvcc_registers(const Problem& p, const Paths& paths, const GradeOptions& opt, const std::string& source,
                              const std::string& shown, const std::string& role, const std::string& arch,
                              const std::string& machine_fingerprint);

}  // namespace hpcjudge
