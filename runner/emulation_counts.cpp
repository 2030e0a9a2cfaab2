#include "runner/emulation_counts.h"

#include <algorithm>

namespace hpcjudge {

namespace {

protocol::KernelCounts kernel(const hpcjudge_emu::runner::KernelCounts& k) {
  protocol::KernelCounts p;
  p.name = k.name;
  p.launches = k.launches;
  std::copy(k.grid, k.grid + 3, p.grid);
  std::copy(k.block, k.block + 3, p.block);
  p.dynamic_shared_bytes = k.dynamic_shared_bytes;
  p.static_shared_bytes = k.static_shared_bytes;
  p.threads = k.threads;
  p.global = {k.global_requests, k.sectors, k.bytes_requested, k.distinct_sectors};
  p.shared = {k.shared_requests, k.wavefronts, k.max_degree};
  p.warp_instructions = k.warp_instructions;
  p.active_lanes = k.active_lanes;
  p.barriers = k.barriers;
  p.atomics = {k.atomics, k.max_same_address, k.max_same_address_floating};
  for (const hpcjudge_emu::runner::LineCounts& l : k.lines)
    p.lines.push_back({l.file, l.line, l.global_requests, l.sectors, l.bytes_requested, l.shared_requests, l.wavefronts});
  return p;
}

}  // namespace

protocol::EmulationCounts to_protocol(const hpcjudge_emu::runner::Counts& c) {
  protocol::EmulationCounts p;
  p.launches = c.launches;
  p.host_syncs = c.host_syncs;
  for (const hpcjudge_emu::runner::KernelCounts& k : c.kernels) p.kernels.push_back(kernel(k));
  return p;
}

}  // namespace hpcjudge
