#include "judge/estimate/registers.h"

#include <algorithm>

#include "judge/files.h"
#include "judge/grading/compile.h"
#include "judge/machine/gpu.h"

namespace hpcjudge {

namespace {

// "tiled<32>(float const*, float*)" -> "tiled<32>"; "(anonymous namespace)::reduce(float const*)" -> "reduce"
// (the demangled name of a kernel in an anonymous namespace, launched as "reduce").
std::string without_parameters(std::string name) {
  static const std::string anonymous = "(anonymous namespace)::";
  for (size_t at; (at = name.find(anonymous)) != std::string::npos;) name.erase(at, anonymous.size());
  return name.substr(0, name.find('('));
}
// "ns::tiled<a::b>" -> "tiled<a::b>".
std::string unqualified(const std::string& name) {
  const size_t colon = name.rfind("::", name.find('<'));
  return colon == std::string::npos ? name : name.substr(colon + 2);
}
// "ns::tiled<32>" -> "tiled".
std::string base_name(const std::string& name) {
  const std::string u = unqualified(name);
  return u.substr(0, u.find('<'));
}

}  // namespace

KernelRegisters registers_by_kernel(const std::vector<KernelResources>& kernels) {
  KernelRegisters out;
  for (const KernelResources& k : kernels) out.emplace_back(without_parameters(k.name), k.registers);
  return out;
}

std::optional<int> registers_of(const KernelRegisters& registers, const std::string& launched) {
  for (const auto& [name, r] : registers)
    if (name == launched) return r;
  for (const auto& [name, r] : registers)
    if (unqualified(name) == unqualified(launched)) return r;
  std::optional<int> most;
  for (const auto& [name, r] : registers)
    if (base_name(name) == base_name(launched)) most = std::max(most.value_or(0), r);
  return most;
}

RegistersFound nvcc_registers(const Problem& p, const Paths& paths, const GradeOptions& opt, const std::string& source,
                              const std::string& shown, const std::string& role, const std::string& arch,
                              const std::string& machine_fingerprint) {
  if (nvcc_path().empty()) return {std::nullopt, "nvcc is not on this machine"};
  TempDir dir;
  const CompileOptions co{.arch = arch, .sandbox = opt.sandbox, .emulate = false, .hidden = opt.hidden,
                          .source_name = shown};
  const CompileResult cr = role.empty()
                               ? compile_submission_cached(p, paths, source, dir.path, co, machine_fingerprint)
                               : compile_reference(p, paths, role, source, dir.path, co, machine_fingerprint);
  if (!cr.ok) return {std::nullopt, "nvcc did not compile it for " + arch + ": " + cr.message};
  return {registers_by_kernel(cr.kernels), ""};
}

}  // namespace hpcjudge
