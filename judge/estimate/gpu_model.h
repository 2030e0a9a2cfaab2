// A named GPU as the estimate sees it (judge --emulate --model GPU): the memory system's rates, the SM's
// limits and the costs of a launch, a synchronisation and the judge's own per-call overhead. Each constant
// carries one line of evidence: a datasheet figure or a measurement under bench/results/. The estimate's
// arithmetic is judge/estimate/kernel_time.h; these are its only machine figures.
#pragma once
#include <string>
#include <vector>

namespace hpcjudge {

struct GpuModel {
  std::string name;   // what --model takes: "h100-sxm"
  std::string label;  // what the report prints: "H100 SXM"
  std::string arch;   // what nvcc compiles for, for ptxas's registers (registers.h): "sm_90"
  double dram_bytes_per_s = 0;     // achievable DRAM bandwidth (a device-to-device copy's, read + write)
  double l2_bytes_per_s = 0;       // L2 <-> SM bandwidth, all slices
  double l2_bytes = 0;             // L2 capacity
  double clock_hz = 0;             // SM clock under load
  int sms = 0;
  int max_threads_per_sm = 0, max_blocks_per_sm = 0;
  double shared_bytes_per_sm = 0;  // shared memory an SM's blocks may hold together
  int registers_per_sm = 65536;
  double fp32_flops_per_s = 0;     // FP32 FMA peak (2 FLOP each)
  double same_address_atomic_s = 0;  // one floating-point atomic on a word other atomics of the launch update too
  double launch_s = 0;             // one kernel launch, back to back
  double host_sync_s = 0;          // one host synchronisation (cudaDeviceSynchronize, a blocking cudaMemcpy)
  double call_overhead_s = 0;      // the judge's clock around a call, past the device's time (its context switch)
  // The model's stated uncertainty: a time within this factor either way of the measured one (about 2 in 3
  // files; the validation table bench/results/estimate-<gpu>.md checks it). The score's ± comes from it.
  double uncertainty_factor = 2.0;
  // Derived rates: shared memory serves one wavefront (32 banks x 4 bytes) per clock per SM; the load/store
  // units issue one warp-wide memory instruction per clock per SM.
  double shared_wavefronts_per_s() const { return clock_hz * sms; }
  double memory_instructions_per_s() const { return clock_hz * sms; }
  int max_warps_per_sm() const { return max_threads_per_sm / 32; }
};

// The models --model names, the default first.
const std::vector<GpuModel>& gpu_models();
// The model named `name`, or nullptr.
const GpuModel* find_gpu_model(const std::string& name);
// "h100-sxm, h200, rtx-4090": for a usage message.
std::string gpu_model_names();
inline constexpr const char* kDefaultGpuModel = "h100-sxm";

}  // namespace hpcjudge
