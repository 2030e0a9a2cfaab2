#include "judge/estimate/gpu_model.h"

namespace hpcjudge {

namespace {

// NVIDIA H100 SXM5 80 GB (sm_90), the judge's reference GPU (bench/results/nvidia-h100-80gb-hbm3.md).
GpuModel h100_sxm() {
  GpuModel m;
  m.name = "h100-sxm";
  m.label = "H100 SXM";
  m.arch = "sm_90";
  m.dram_bytes_per_s = 3.03e12;   // measured copy 3028 GB/s (bench/results/nvidia-h100-80gb-hbm3.md; datasheet 3.35 TB/s)
  m.l2_bytes_per_s = 7.0e12;      // about 2.3x DRAM: Hopper microbenchmarks (Luo et al., arXiv 2402.13499) give 6-8 TB/s
  m.l2_bytes = 50e6;              // datasheet: 50 MB L2
  m.clock_hz = 1.98e9;            // SM clock in timed calls, 1980 MHz (docs/notebook/gpu-call-overhead.md)
  m.sms = 132;                    // datasheet: 132 SMs (SXM5)
  m.max_threads_per_sm = 2048;    // CUDA programming guide, compute capability 9.0
  m.max_blocks_per_sm = 32;       // CUDA programming guide, compute capability 9.0
  m.shared_bytes_per_sm = 228e3;  // CUDA programming guide, 9.0: 228 KB per SM (227 KB per block)
  m.fp32_flops_per_s = 60.6e12;   // measured FMA rate 60558 GFLOP/s (bench/results/nvidia-h100-80gb-hbm3.md)
  m.same_address_atomic_s = 1.5e-9;  // float atomicAdd on one word: 1.31 ns one a block, 1.75 every lane (lab/atomic_probe.cu)
  m.launch_s = 2.5e-6;            // back-to-back launches 2-3 us (softmax-gpu n1M: kernel 7.8 us in 17 us, nvidia-h200.md)
  m.host_sync_s = 5e-6;           // a synchronise's return, 4-6 us (the same softmax-gpu n1M split)
  m.call_overhead_s = 90e-6;      // vector-add n32M: 0.235 ms on the judge's clock, 0.144 ms on the device (H100 table)
  return m;
}

// NVIDIA H200 SXM 141 GB (sm_90): the H100's SM with HBM3e (bench/results/nvidia-h200.md).
GpuModel h200() {
  GpuModel m = h100_sxm();
  m.name = "h200";
  m.label = "H200";
  m.dram_bytes_per_s = 4.23e12;   // measured copy 4234 GB/s (bench/results/nvidia-h200.md; datasheet 4.8 TB/s)
  m.fp32_flops_per_s = 60.7e12;   // measured FMA rate 60674 GFLOP/s (bench/results/nvidia-h200.md)
  m.call_overhead_s = 125e-6;     // vector-add n32M: 0.232 ms on the judge's clock, 0.107 ms on the device (H200 table)
  return m;
}

// NVIDIA GeForce RTX 4090 (sm_89), a consumer card: datasheet figures, not measured here.
GpuModel rtx_4090() {
  GpuModel m;
  m.name = "rtx-4090";
  m.label = "RTX 4090";
  m.arch = "sm_89";
  m.dram_bytes_per_s = 0.91e12;   // datasheet 1008 GB/s, less the H100's measured shortfall (3028 of 3350: 90%)
  m.l2_bytes_per_s = 3.5e12;      // about 3.5x DRAM, Ada microbenchmarks (chipsandcheese.com, "Ada Lovelace's L2")
  m.l2_bytes = 72e6;              // datasheet: 72 MB L2
  m.clock_hz = 2.52e9;            // datasheet boost clock 2520 MHz
  m.sms = 128;                    // datasheet: 128 SMs
  m.max_threads_per_sm = 1536;    // CUDA programming guide, compute capability 8.9
  m.max_blocks_per_sm = 24;       // CUDA programming guide, compute capability 8.9
  m.shared_bytes_per_sm = 100e3;  // CUDA programming guide, 8.9: 100 KB per SM (99 KB per block)
  m.fp32_flops_per_s = 82.6e12;   // datasheet: 82.6 TFLOPS FP32
  m.same_address_atomic_s = 1.5e-9;  // as the H100's; not measured
  m.launch_s = 2.5e-6;            // as the H100's (same driver path); not measured
  m.host_sync_s = 5e-6;           // as the H100's; not measured
  m.call_overhead_s = 90e-6;      // as the H100's (the judge's context switch); not measured
  m.uncertainty_factor = 2.5;     // datasheet figures only, no table of its own: wider than the H100's
  return m;
}

}  // namespace

const std::vector<GpuModel>& gpu_models() {
  static const std::vector<GpuModel> models = {h100_sxm(), h200(), rtx_4090()};
  return models;
}

const GpuModel* find_gpu_model(const std::string& name) {
  for (const GpuModel& m : gpu_models())
    if (m.name == name) return &m;
  return nullptr;
}

std::string gpu_model_names() {
  std::string s;
  for (const GpuModel& m : gpu_models()) s += (s.empty() ? "" : ", ") + m.name;
  return s;
}

}  // namespace hpcjudge
