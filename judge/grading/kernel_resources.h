// Each kernel's resource use as the compiler reports it (nvcc -Xptxas -v): registers
// per thread, spills, stack, static shared memory; and the occupancy those allow on
// the architecture compiled for. It tells a student why a kernel may be slow before
// any profiler runs: spills go to local memory, and registers or shared memory past
// a threshold leave fewer warps on an SM to hide memory latency.
#pragma once
#include "protocol/json.h"
#include <optional>
#include <string>
#include <vector>

namespace hpcjudge {

struct KernelResources {
  std::string name;     // demangled: "tiled<32>(float const*, float*)"
  std::string mangled;  // as the binary has it: "_Z5tiledILi32EEvPKfPf" (what ncu filters on)
  int registers = 0;
  int barriers = 0;
  long stack_bytes = 0, spill_store_bytes = 0, spill_load_bytes = 0;
  long shared_bytes = 0;  // static __shared__ (dynamic shared memory is a launch's choice)
  // Of the SM's warp slots, the share that `registers` allow (1 = every slot), where
  // the architecture is known; and the most blocks per SM that `shared_bytes` allow.
  std::optional<double> occupancy_by_registers = {};
  std::optional<int> blocks_by_shared = {};
  nlohmann::json to_json() const;
  std::string describe() const;  // one line for the human report
};

// Parses ptxas's "-v" lines in a compile log, for the architecture "sm_XY" compiled for.
std::vector<KernelResources> parse_ptxas_info(const std::string& log, const std::string& arch);

}  // namespace hpcjudge
