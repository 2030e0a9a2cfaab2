// What the runner asks of the emulator (runner/runner_memory.cpp, emulated
// mode): the device range set up, the judge's buffers mapped into it, and
// each call's device-memory account and errors.
#pragma once
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hpcjudge_emu::runner {

struct Buffer {
  size_t offset = 0, bytes = 0, elem = 1;  // in the arena
  std::string name;
};

// Device memory the submission holds, against the call's limit (as runner/device_memory.h on a GPU).
struct Ledger {
  size_t held = 0, peak = 0, limit = 0, refused = 0, refused_at = 0;
  bool admit(size_t bytes);
  void record(size_t bytes);
  void forget(size_t bytes);
};

// Reserves the device range, maps the shared host arena (the judge's memfd, `arena_fd`, which it closes) at its
// start, installs the fault handler and closes the range to every other code's mapping calls (guard.cpp); once
// per process, before the submission is loaded.
void setup(int arena_fd);
// The judge's buffers reach `bytes` into the arena now (the judge grew its file); returns the arena's start.
std::byte* map_arena(size_t bytes);
void set_buffers(std::vector<Buffer> buffers);
Ledger& ledger();

struct CallEnd {
  std::string error;  // "" when all is well
  bool sticky = false;
};
void begin_call(size_t device_memory_limit);
CallEnd end_call();

// What the kernels of a call did to the memory system (emulate/runtime/counters.h; the same figures, by the same
// names, as protocol/emulation_counts.h, which the runner fills from these).
struct LineCounts {
  std::string file;  // the submission's source file as compiled (its base name)
  int line = 0;
  uint64_t global_requests = 0, sectors = 0, bytes_requested = 0, shared_requests = 0, wavefronts = 0;
};
struct KernelCounts {
  std::string name;
  uint64_t launches = 0;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint64_t dynamic_shared_bytes = 0, static_shared_bytes = 0, threads = 0;
  uint64_t global_requests = 0, sectors = 0, bytes_requested = 0, distinct_sectors = 0;
  uint64_t shared_requests = 0, wavefronts = 0, max_degree = 0;
  uint64_t warp_instructions = 0, active_lanes = 0, barriers = 0;
  uint64_t atomics = 0, max_same_address = 0, max_same_address_floating = 0;
  std::vector<LineCounts> lines;
};
struct Counts {
  uint64_t launches = 0, host_syncs = 0;
  std::vector<KernelCounts> kernels;
};
// Counting on for the calls that follow (off: nothing counted, the default); what was counted is kept until
// take_counts(), which resolves each instruction to the submission's file and line.
void count_accesses(bool on);
Counts take_counts();

}  // namespace hpcjudge_emu::runner

namespace hpcjudge_emu {
// At a call's time limit the judge sends kStallSignal (ignored by default, so no process it reaches ends by it) to
// the runner; the emulator answers with one line on stderr, kStallMark and what was running: the kernel, its block
// and the threads that had not ended, or host code (judge/isolation/session.cpp takes the line into the TLE).
inline constexpr int kStallSignal = SIGWINCH;
inline constexpr char kStallMark[] = "hpcjudge-emulate stall: ";
void install_stall_report();
void install_fault_handler();
void free_all_allocations();
}
