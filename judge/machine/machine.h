// What the report says about the machine a result was measured on.
#pragma once
#include "protocol/json.h"
#include <string>

namespace hpcjudge {

struct MachineInfo {
  std::string cpu_model;
  int cores = 0;    // logical CPUs the judge may use
  int threads = 0;  // OpenMP threads given to submissions
  std::string os;
  std::string hostname;
  std::string compiler;  // first line of the submission compiler's --version
  nlohmann::json gpu;    // for GPU problems: the device, and NVML readings around the timed runs
  nlohmann::json peaks;  // the measured speed of light the percentages refer to (judge/machine/calibration.h)
  nlohmann::json to_json() const;
  // Identifies the machine for cached measurements (the scoring scale).
  std::string fingerprint() const;
};

MachineInfo probe_machine(int threads);

}  // namespace hpcjudge
