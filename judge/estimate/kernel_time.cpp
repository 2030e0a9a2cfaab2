#include "judge/estimate/kernel_time.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "judge/estimate/registers.h"

namespace hpcjudge {

namespace {

constexpr double kSector = 32;   // bytes in a sector
constexpr size_t kTopLines = 8;  // lines kept per kernel

// Blocks one SM holds at once: by threads, blocks, shared memory and registers (where known); at least 1.
int blocks_per_sm(const protocol::KernelCounts& k, const GpuModel& gpu, std::optional<int> registers) {
  const double threads = std::max<double>(1, double(k.block[0]) * k.block[1] * k.block[2]);
  const double warps = std::ceil(threads / 32);
  double b = std::min<double>(gpu.max_blocks_per_sm, std::floor(gpu.max_warps_per_sm() / warps));
  const double shared = double(k.dynamic_shared_bytes + k.static_shared_bytes);
  if (shared > 0) b = std::min(b, std::floor(gpu.shared_bytes_per_sm / shared));
  if (registers && *registers > 0) b = std::min(b, std::floor(gpu.registers_per_sm / (*registers * warps * 32)));
  return std::max(1, static_cast<int>(b));
}

// The warps resident at once over those that saturate the SMs, and the last wave's idle share.
void occupancy(const protocol::KernelCounts& k, const GpuModel& gpu, const Scaling& scale, KernelEstimate& e,
               std::optional<int> registers) {
  const double threads = std::max<double>(1, double(k.block[0]) * k.block[1] * k.block[2]);
  const double launches = std::max<double>(1, double(k.launches));
  // A grid of one block is one at any size (a one-block scan or finisher); another grows with the work.
  const double emulated_blocks = std::max(1.0, std::ceil(double(k.threads) / threads / launches));
  const double blocks = emulated_blocks > 1 ? emulated_blocks * scale.work : 1;
  e.blocks_per_sm = blocks_per_sm(k, gpu, registers);
  const double slots = double(gpu.sms) * e.blocks_per_sm;
  const double resident_warps = std::min(blocks, slots) * std::ceil(threads / 32);
  e.utilisation = std::min(1.0, resident_warps / (gpu.sms * std::min<double>(kSaturatingWarps, gpu.max_warps_per_sm())));
  const double waves = blocks / slots;
  e.tail = waves > 1 ? std::ceil(waves) / waves : 1;
}

void memory_figures(const protocol::KernelCounts& k, KernelEstimate& e) {
  const auto& g = k.global;
  if (g.sectors > 0) e.coalescing = std::min(1.0, double(g.bytes_requested) / (kSector * g.sectors));
  if (g.requests > 0) e.sectors_per_request = double(g.sectors) / g.requests;
  if (k.shared.requests > 0) e.bank_conflict_degree = double(k.shared.wavefronts) / k.shared.requests;
  e.max_conflict_degree = k.shared.max_degree;
  if (k.warp_instructions > 0) e.active_lanes = double(k.active_lanes) / k.warp_instructions;
  e.barriers = k.barriers;
  e.atomics = k.atomics.count;
  e.max_same_address = k.atomics.max_same_address;
}

std::vector<LineEstimate> worst_lines(const protocol::KernelCounts& k, const Scaling& scale) {
  std::vector<LineEstimate> v;
  for (const auto& l : k.lines) {
    const double moved = kSector * double(l.sectors), asked = double(l.bytes_requested);
    const double wasted = std::max(0.0, moved - asked) * scale.work;
    const double conflicts = (double(l.wavefronts) - double(std::min(l.wavefronts, l.shared_requests))) * scale.work;
    if (wasted > 0 || conflicts > 0) v.push_back({l.file, l.line, wasted, conflicts});
  }
  // The worst kTopLines by wasted bytes and the worst kTopLines by conflicts, together, by wasted bytes first.
  const auto by_waste = [](const LineEstimate& a, const LineEstimate& b) {
    return a.wasted_bytes != b.wasted_bytes ? a.wasted_bytes > b.wasted_bytes : a.conflicts > b.conflicts;
  };
  std::sort(v.begin(), v.end(), [](const LineEstimate& a, const LineEstimate& b) { return a.conflicts > b.conflicts; });
  std::vector<LineEstimate> kept;
  for (size_t i = 0; i < v.size() && i < kTopLines && v[i].conflicts > 0; ++i) kept.push_back(v[i]);
  std::sort(v.begin(), v.end(), by_waste);
  for (size_t i = 0; i < v.size() && i < kTopLines; ++i)
    if (std::none_of(kept.begin(), kept.end(), [&](const LineEstimate& k) { return k.file == v[i].file && k.line == v[i].line; }))
      kept.push_back(v[i]);
  std::sort(kept.begin(), kept.end(), by_waste);
  return kept;
}

}  // namespace

KernelEstimate estimate_kernel(const protocol::KernelCounts& k, const GpuModel& gpu, const Scaling& scale,
                               std::optional<int> registers) {
  KernelEstimate e;
  e.name = k.name;
  e.launches = k.launches;
  e.registers = registers;
  memory_figures(k, e);
  const double moved = kSector * double(k.global.sectors) * scale.work;
  const double distinct = kSector * double(k.global.distinct_sectors) * scale.traffic;
  // Past L2's capacity a sector read again has been evicted in proportion to the footprint L2 cannot hold.
  const double evicted = distinct > gpu.l2_bytes ? 1 - gpu.l2_bytes / distinct : 0;
  e.distinct_bytes = distinct;
  e.moved_bytes = moved;
  e.dram_bytes = std::min(distinct, moved) + std::max(0.0, moved - distinct) * evicted;
  e.dram_s = e.dram_bytes / gpu.dram_bytes_per_s;
  e.l2_s = moved / gpu.l2_bytes_per_s;
  e.shared_s = double(k.shared.wavefronts) * scale.work / gpu.shared_wavefronts_per_s();
  e.issue_s = double(k.warp_instructions) * scale.work / gpu.memory_instructions_per_s();
  e.atomic_s = double(k.atomics.max_same_address_floating) * scale.work * gpu.same_address_atomic_s;
  const std::pair<double, const char*> terms[] = {
      {e.dram_s, "DRAM"}, {e.l2_s, "L2"}, {e.shared_s, "shared memory"}, {e.issue_s, "issue"}};
  const auto worst = *std::max_element(std::begin(terms), std::end(terms),
                                       [](const auto& a, const auto& b) { return a.first < b.first; });
  occupancy(k, gpu, scale, e, registers);
  // The atomics on one word queue at its L2 slice, one after another, however many warps are resident.
  const double body = worst.first / e.utilisation * e.tail;
  e.bound = e.atomic_s > body ? "atomics on one address" : worst.second;
  e.seconds = std::max(body, e.atomic_s) + double(k.launches) * gpu.launch_s;
  e.lines = worst_lines(k, scale);
  return e;
}

CallEstimate estimate_call(const protocol::EmulationCounts& c, const GpuModel& gpu, const Scaling& scale,
                           double flops, const std::vector<std::pair<std::string, int>>& registers) {
  CallEstimate e;
  e.launches = c.launches;
  e.host_syncs = c.host_syncs;
  for (const auto& k : c.kernels) {
    e.kernels.push_back(estimate_kernel(k, gpu, scale, registers_of(registers, k.name)));
    e.kernels_s += e.kernels.back().seconds;
  }
  e.compute_floor_s = flops / gpu.fp32_flops_per_s;
  e.seconds = std::max(e.kernels_s, e.compute_floor_s) + double(c.host_syncs) * gpu.host_sync_s + gpu.call_overhead_s;
  return e;
}

}  // namespace hpcjudge
