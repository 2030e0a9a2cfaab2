// The counts of emulate/runtime/counters.h. A warp's lanes run one after another here (fibers), so a request is
// gathered as its lanes arrive: keyed by the warp, the instruction's address and the lane's count of its runs of
// that address since the block's last barrier, it is closed when every lane of the warp has made it, at the next
// block barrier, or at the block's end (the lanes that never came were inactive: divergence, a tail).
// g++ splits a vector's load or store (a float4) into one access per field, at consecutive instructions: a
// thread's accesses that continue one another from distinct instructions, within one naturally aligned 8 or 16
// bytes, are taken as the one vector access the GPU makes (a loop's accesses, one instruction, never are).
// A block runs whole on one worker (workers.cpp), so each worker gathers its blocks' requests and counts apart
// (Local), and a launch's end adds them up: the same figures as one worker's.
#include "counters.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "run_table.h"
#include "runner.h"
#include "source_lines.h"

namespace hpcjudge_emu::counters {

bool g_on = false;

namespace {

struct PcCounts {
  uint64_t global_requests = 0, sectors = 0, bytes_requested = 0, shared_requests = 0, wavefronts = 0;
};
struct Kernel {
  runner::KernelCounts c;
  std::unordered_map<uintptr_t, PcCounts> pcs;  // by instruction address
};

struct Group {
  uintptr_t pc = 0;
  MemorySpace space = MemorySpace::Other;
  unsigned lanes = 0;
  std::vector<std::pair<uintptr_t, uint32_t>> accesses;  // address, size
};
struct GroupKey {
  uintptr_t pc;
  uint32_t warp, run;
  MemorySpace space;
  bool operator==(const GroupKey& o) const { return pc == o.pc && warp == o.warp && run == o.run && space == o.space; }
};
struct GroupHash {
  size_t operator()(const GroupKey& k) const {
    uint64_t h = k.pc * 0x9e3779b97f4a7c15ull ^ (uint64_t{k.warp} << 40 | uint64_t{k.run} << 2 | uint64_t(k.space));
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

// A thread's access not yet grouped: the next may continue it (a vector's next field).
struct Pending {
  bool held = false;
  uintptr_t addr = 0, pc = 0, last_pc = 0;  // pc: the first field's instruction, which names the access
  size_t size = 0;
  unsigned warp = 0, linear = 0;
  MemorySpace space = MemorySpace::Other;
  Access kind = Access::Read;
};

// The atomics on one address: all of them, and the floating-point ones.
struct AtomicHits {
  uint64_t all = 0, floating = 0;
};

// One worker's share of the running launch, added to the kernel's at the launch's end.
struct Local {
  Kernel part;  // its requests' counts (part.c's summed fields, part.pcs)
  std::unordered_map<uint64_t, std::array<uint64_t, 2>> sectors;  // distinct 32-byte sectors: 128 bits a 4 KiB page
  std::unordered_map<uintptr_t, AtomicHits> atomic_hits;  // atomics per address
  std::unordered_map<uintptr_t, size_t> static_vars;    // __shared__ variables touched: start, bytes
  // The running block.
  RunTable runs;  // (instruction << 10 | thread): its runs since the last barrier
  std::unordered_map<GroupKey, uint32_t, GroupHash> open;
  std::vector<Group> groups;
  std::vector<uint32_t> spare;
  std::vector<uint64_t> scratch;
  size_t held = 0;  // accesses in open requests
  Pending pending;
};

struct State {
  std::vector<Kernel> kernels;  // of the call, by name
  Kernel* kernel = nullptr;     // the running launch's
  uint64_t launches = 0, host_syncs = 0;
  Local local[kMaxWorkers];
};
State s;

Local& mine() { return s.local[g_worker->index]; }

// Open requests hold their lanes' accesses until closed: past this many accesses held (64 MiB), every open request
// is closed at once, as at a barrier (a warp whose lanes each run that many accesses between barriers is counted
// as if its lanes ran fewer at a time; the counts' memory stays bounded).
constexpr size_t kMaxHeld = size_t{1} << 22;

unsigned warp_lanes(unsigned warp) { return std::min(32u, current_block().nthreads - warp * 32); }

// A global request: its distinct sectors, the bytes its lanes asked for.
void close_global(Local& s, const Group& g, PcCounts& p) {
  std::vector<uint64_t>& ids = s.scratch;
  ids.clear();
  uint64_t bytes = 0;
  for (const auto& [a, n] : g.accesses) {
    for (uint64_t x = a >> 5; x <= (a + n - 1) >> 5; ++x) ids.push_back(x);
    bytes += n;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (uint64_t x : ids) s.sectors[x >> 7][x >> 6 & 1] |= uint64_t{1} << (x & 63);
  runner::KernelCounts& k = s.part.c;
  ++k.global_requests;
  k.sectors += ids.size();
  k.bytes_requested += bytes;
  ++p.global_requests;
  p.sectors += ids.size();
  p.bytes_requested += bytes;
}

// A shared request: its degree, the most distinct 4-byte words in one bank (one word read by many is a broadcast).
void close_shared(Local& s, const Group& g, PcCounts& p) {
  std::vector<uint64_t>& words = s.scratch;
  words.clear();
  for (const auto& [a, n] : g.accesses)
    for (uint64_t w = a >> 2; w <= (a + n - 1) >> 2; ++w) words.push_back(w);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  unsigned per_bank[32] = {};
  unsigned degree = 0;
  for (uint64_t w : words) degree = std::max(degree, ++per_bank[w & 31]);
  runner::KernelCounts& k = s.part.c;
  ++k.shared_requests;
  k.wavefronts += degree;
  k.max_degree = std::max<uint64_t>(k.max_degree, degree);
  ++p.shared_requests;
  p.wavefronts += degree;
}

void close(Local& s, uint32_t index) {
  Group& g = s.groups[index];
  PcCounts& p = s.part.pcs[g.pc];
  ++s.part.c.warp_instructions;
  s.part.c.active_lanes += g.lanes;
  if (g.space == MemorySpace::Global) close_global(s, g, p);
  else close_shared(s, g, p);
  s.held -= g.accesses.size();
  g.accesses.clear();
  s.spare.push_back(index);
}

void group(Local& s, const Pending& a);

void flush(Local& s) {
  if (!s.pending.held) return;
  s.pending.held = false;
  group(s, s.pending);
}

void close_all(Local& s) {
  flush(s);
  for (const auto& [key, index] : s.open) close(s, index);
  s.open.clear();
}

void count_atomic(Local& s, uintptr_t addr, bool floating) {
  ++s.part.c.atomics;
  AtomicHits& h = s.atomic_hits[addr];
  ++h.all;
  h.floating += floating;
}

}  // namespace

namespace {

// The access joined to the request of its warp's lanes at the same instruction instance.
void group(Local& s, const Pending& a) {
  const uint32_t run = s.runs.next(a.pc << 10 | a.linear);
  const auto [it, fresh] = s.open.try_emplace(GroupKey{a.pc, a.warp, run, a.space}, 0);
  if (fresh) {
    if (s.spare.empty()) {
      s.spare.push_back(static_cast<uint32_t>(s.groups.size()));
      s.groups.emplace_back();
    }
    it->second = s.spare.back();
    s.spare.pop_back();
    Group& g = s.groups[it->second];
    g.pc = a.pc;
    g.space = a.space;
    g.lanes = 0;
  }
  Group& g = s.groups[it->second];
  g.accesses.emplace_back(a.addr, static_cast<uint32_t>(a.size));
  ++s.held;
  if (++g.lanes == warp_lanes(a.warp)) {
    close(s, it->second);
    s.open.erase(it);
  } else if (s.held > kMaxHeld) {
    close_all(s);
  }
}

// Whether the access continues the pending one as the next field of one aligned vector.
bool continues(const Pending& p, uintptr_t addr, size_t size, Access kind, MemorySpace space, unsigned linear,
               uintptr_t pc) {
  if (!p.held || p.linear != linear || p.kind != kind || p.space != space || pc == p.last_pc) return false;
  const size_t merged = p.size + size;
  return addr == p.addr + p.size && merged <= 16 && p.addr % (merged <= 8 ? 8 : 16) == 0;
}

// The running worker's share where the running kernel's access to `addr` is counted (global or shared memory),
// with the __shared__ variable it touched noted; null where it is not counted.
Local* counted(uintptr_t addr, MemorySpace& space) {
  if (!g_thread || !s.kernel) return nullptr;
  uintptr_t var = 0;
  size_t var_bytes = 0;
  space = memory_space(addr, &var, &var_bytes);
  if (space == MemorySpace::Other) return nullptr;
  Local& l = mine();
  if (var_bytes) l.static_vars.emplace(var, var_bytes);
  return &l;
}

}  // namespace

void atomic(uintptr_t addr, bool floating) {
  MemorySpace space;
  if (Local* l = counted(addr, space)) count_atomic(*l, addr, floating);
}

void access(uintptr_t addr, size_t size, Access kind, uintptr_t pc) {
  if (size == 0) return;
  MemorySpace space;
  Local* const counting = counted(addr, space);
  if (!counting) return;
  Local& l = *counting;
  const Thread* t = g_thread;
  Pending& p = l.pending;
  if (continues(p, addr, size, kind, space, t->linear, pc)) {
    p.size += size;
    p.last_pc = pc;
    return;
  }
  flush(l);
  p = Pending{true, addr, pc, pc, size, t->warp, t->linear, space, kind};
}

void launch_begin(const Launch& l) {
  ++s.launches;
  auto it = std::find_if(s.kernels.begin(), s.kernels.end(), [&](const Kernel& k) { return k.c.name == l.name; });
  if (it == s.kernels.end()) {
    s.kernels.emplace_back();
    s.kernels.back().c.name = l.name;
    it = s.kernels.end() - 1;
  }
  s.kernel = &*it;
  runner::KernelCounts& k = it->c;
  ++k.launches;
  const unsigned grid[3] = {l.grid.x, l.grid.y, l.grid.z}, block[3] = {l.block.x, l.block.y, l.block.z};
  std::copy(grid, grid + 3, k.grid);
  std::copy(block, block + 3, k.block);
  k.dynamic_shared_bytes = l.shared;
  k.threads += uint64_t{l.grid.x} * l.grid.y * l.grid.z * l.block.x * l.block.y * l.block.z;
  for (Local& w : s.local) {
    w.part = Kernel{};
    w.sectors.clear();
    w.atomic_hits.clear();
    w.static_vars.clear();
  }
}

namespace {

// A worker's share of the launch added to the kernel's counts (on the launching thread, the workers done).
void add_part(Kernel& k, Local& w, std::unordered_map<uint64_t, std::array<uint64_t, 2>>& sectors,
              std::unordered_map<uintptr_t, AtomicHits>& hits, std::unordered_map<uintptr_t, size_t>& vars) {
  close_all(w);
  const runner::KernelCounts& c = w.part.c;
  k.c.global_requests += c.global_requests;
  k.c.sectors += c.sectors;
  k.c.bytes_requested += c.bytes_requested;
  k.c.shared_requests += c.shared_requests;
  k.c.wavefronts += c.wavefronts;
  k.c.max_degree = std::max(k.c.max_degree, c.max_degree);
  k.c.warp_instructions += c.warp_instructions;
  k.c.active_lanes += c.active_lanes;
  k.c.barriers += c.barriers;
  k.c.atomics += c.atomics;
  for (const auto& [pc, p] : w.part.pcs) {
    PcCounts& q = k.pcs[pc];
    q.global_requests += p.global_requests;
    q.sectors += p.sectors;
    q.bytes_requested += p.bytes_requested;
    q.shared_requests += p.shared_requests;
    q.wavefronts += p.wavefronts;
  }
  for (const auto& [page, bits] : w.sectors) {
    std::array<uint64_t, 2>& b = sectors[page];
    b[0] |= bits[0];
    b[1] |= bits[1];
  }
  for (const auto& [addr, n] : w.atomic_hits) {
    AtomicHits& h = hits[addr];
    h.all += n.all;
    h.floating += n.floating;
  }
  vars.insert(w.static_vars.begin(), w.static_vars.end());
}

}  // namespace

void launch_end() {
  if (!s.kernel) return;
  std::unordered_map<uint64_t, std::array<uint64_t, 2>> sectors;
  std::unordered_map<uintptr_t, AtomicHits> hits;
  std::unordered_map<uintptr_t, size_t> vars;
  for (Local& w : s.local) add_part(*s.kernel, w, sectors, hits, vars);
  runner::KernelCounts& k = s.kernel->c;
  for (const auto& [page, bits] : sectors)
    k.distinct_sectors += static_cast<uint64_t>(__builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]));
  for (const auto& [addr, n] : hits) {
    k.max_same_address = std::max(k.max_same_address, n.all);
    k.max_same_address_floating = std::max(k.max_same_address_floating, n.floating);
  }
  uint64_t shared = 0;
  for (const auto& [start, bytes] : vars) shared += bytes;
  k.static_shared_bytes = std::max(k.static_shared_bytes, shared);
  s.kernel = nullptr;
}

void block_begin() {
  Local& l = mine();
  l.runs.clear();
  l.open.clear();
}

void block_end() {
  if (s.kernel) close_all(mine());
}

void barrier_completed() {
  if (!s.kernel) return;
  Local& l = mine();
  close_all(l);
  l.runs.clear();
  runner::KernelCounts& k = l.part.c;
  k.barriers += current_block().nwarps;
  k.warp_instructions += current_block().nwarps;
  k.active_lanes += current_block().nthreads;
}

void warp_collective(unsigned lanes) {
  if (!s.kernel) return;
  runner::KernelCounts& k = mine().part.c;
  ++k.warp_instructions;
  k.active_lanes += static_cast<unsigned>(__builtin_popcount(lanes));
}

void host_sync() { ++s.host_syncs; }

// The per-instruction counts of a kernel summed by the submission's line (instructions of other files dropped).
std::vector<runner::LineCounts> lines_of(const Kernel& k) {
  std::vector<runner::LineCounts> out;
  for (const auto& [pc, p] : k.pcs) {
    const std::optional<SourceLine> at = submission_line(pc);
    if (!at) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const runner::LineCounts& l) { return l.line == at->line && l.file == at->file; });
    if (it == out.end()) it = out.insert(out.end(), runner::LineCounts{at->file, at->line});
    it->global_requests += p.global_requests;
    it->sectors += p.sectors;
    it->bytes_requested += p.bytes_requested;
    it->shared_requests += p.shared_requests;
    it->wavefronts += p.wavefronts;
  }
  std::sort(out.begin(), out.end(), [](const runner::LineCounts& a, const runner::LineCounts& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  return out;
}

}  // namespace hpcjudge_emu::counters

namespace hpcjudge_emu::runner {

void count_accesses(bool on) {
  if (on) counters::s = counters::State{};  // nothing left of a call that ended without take_counts()
  counters::g_on = on;
}

Counts take_counts() {
  counters::State& s = counters::s;
  Counts c;
  c.launches = s.launches;
  c.host_syncs = s.host_syncs;
  for (const counters::Kernel& k : s.kernels) {
    c.kernels.push_back(k.c);
    c.kernels.back().lines = counters::lines_of(k);
  }
  s = counters::State{};
  return c;
}

}  // namespace hpcjudge_emu::runner
