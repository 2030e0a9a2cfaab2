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
