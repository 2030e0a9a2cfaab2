// The time a modelled GPU (gpu_model.h) takes for what the emulator counted in one solve() call
// (protocol/emulation_counts.h). Per kernel, over its launches:
//
//   body = max( DRAM:    DRAM bytes / DRAM bandwidth                       (see below)
//               L2:      sectors moved x 32 B / L2 bandwidth               (every request's sectors, reused or not)
//               shared:  wavefronts / (SMs x clock)                        (one 32-bank wavefront per clock per SM)
//               issue:   warp memory instructions / (SMs x clock) )        (one per clock per SM's load/store units)
//          / utilisation x tail
//   kernel = max(body, atomics on one address) + launches x launch cost
//
// atomics on one address: the most floating-point atomics (one per lane) on any one word in a launch x the
// per-atomic cost of GpuModel::same_address_atomic_s: they serialise at that word's L2 slice whatever the
// occupancy. Integer atomics are not charged: the compiler combines a warp's on one word into one (lab/
// atomic_probe.cu: 0.02 ns a lane, every lane on one int), and one lane's alone was not measured.
//
// DRAM bytes: the distinct sectors x 32 B (each byte fetched once), and where that footprint exceeds L2, the
// sectors read again (moved - distinct) x (1 - L2 size / footprint): the share of the footprint L2 cannot hold.
// utilisation: the warps resident at once (blocks per SM from the block's threads, its shared memory and, where
// nvcc reported them, its registers; at most the grid's blocks) over kSaturatingWarps per SM, at most 1; tail:
// the last partial wave's idle SMs (ceil(waves) / waves). The call = the kernels, at least the problem's FLOPs at
// the FP32 peak, + host synchronisations + the judge's per-call overhead.
//
// Scaling: the counts come from an emulated case smaller than the performance case modelled. Every count is
// multiplied by `work` (the cases' FLOPs, or bytes where the model has none), distinct sectors by `traffic` (the
// cases' bytes), the grid's blocks by `work` unless the grid is one block (a one-block scan, softmax or finisher
// stays one block at any size); launches and synchronisations are not scaled. So a kernel whose
// work does not grow with the problem (a one-block finisher) is over-counted.
//
// Not modelled (what the validation's misses are likely to be): L1 hits and reuse distance (a warp re-reading its
// own sectors soon costs L2 time, and past L2's capacity DRAM time, here), latency-bound chains (a scan's
// look-back, a single warp's loop), arithmetic beyond the FLOP floor, atomics' throughput on distinct words, an integer
// atomic per block on one word, warp divergence past its memory instructions.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "judge/estimate/gpu_model.h"
#include "protocol/emulation_counts.h"

namespace hpcjudge {

// Warps per SM that keep its memory pipes busy: half the H100's 64 slots (the CUDA best-practices guide's advice
// that occupancy past about 50% seldom speeds a memory-bound kernel). An assumption the validation checks.
inline constexpr double kSaturatingWarps = 32;

// The emulated case's counts over the modelled case's (see above).
struct Scaling {
  double work = 1;
  double traffic = 1;
};

struct LineEstimate {
  std::string file;
  int line = 0;
  double wasted_bytes = 0;  // moved in sectors but not asked for: 32 x sectors - bytes requested (scaled)
  double conflicts = 0;     // shared wavefronts past one per request: the bank conflicts' extra cycles (scaled)
};

struct KernelEstimate {
  std::string name;
  uint64_t launches = 0;
  double seconds = 0;  // body + launches
  double dram_bytes = 0, dram_s = 0, l2_s = 0, shared_s = 0, issue_s = 0, atomic_s = 0;
  double distinct_bytes = 0, moved_bytes = 0;  // the distinct sectors' bytes, and every request's sectors' (scaled)
  std::string bound;  // "DRAM", "L2", "shared memory", "issue" or "atomics on one address": the largest term
  double utilisation = 1, tail = 1;
  int blocks_per_sm = 0;
  std::optional<int> registers;    // per thread, where ptxas reported them (registers.h)
  double coalescing = 1;           // bytes requested / bytes the sectors moved (1 without global requests)
  double sectors_per_request = 0;
  double bank_conflict_degree = 1;  // wavefronts per shared request (1: no conflict)
  uint64_t max_conflict_degree = 0;
  double active_lanes = 32;         // per warp memory instruction or barrier
  uint64_t barriers = 0, atomics = 0, max_same_address = 0;
  // The lines that waste bytes or conflict: the worst 8 by wasted bytes and the worst 8 by conflicts, by wasted
  // bytes first.
  std::vector<LineEstimate> lines;
};

struct CallEstimate {
  std::vector<KernelEstimate> kernels;
  double kernels_s = 0;     // the kernels, launches included
  double compute_floor_s = 0;
  uint64_t launches = 0, host_syncs = 0;
  double seconds = 0;       // the call on the judge's clock, as modelled
};

// One kernel's estimate; `registers` per thread where nvcc reported them.
KernelEstimate estimate_kernel(const protocol::KernelCounts& k, const GpuModel& gpu, const Scaling& scale,
                               std::optional<int> registers = std::nullopt);

// The call's estimate; `flops` the modelled case's FLOPs (the problem's model; 0 for none), `registers` by kernel
// name (empty where nvcc did not run).
CallEstimate estimate_call(const protocol::EmulationCounts& c, const GpuModel& gpu, const Scaling& scale,
                           double flops, const std::vector<std::pair<std::string, int>>& registers = {});

}  // namespace hpcjudge
