// The emulator's own state, shared by its parts (never seen by a submission):
//   fiber.cpp    the threads' stacks and the switch between them
//   launch.cpp   grids, blocks, the scheduler and the block barrier
//   warp.cpp     warp collectives
//   memory.cpp   the device range, allocations, shared memory, every access checked, the race check
//   api.cpp      errors, streams, events, the device's description, atomics, what the runner asks
//   guard.cpp    the seccomp filter that keeps every other code from changing the device range's mappings
#pragma once
#include <pthread.h>

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "hpcjudge_emulate.h"

namespace hpcjudge_emu {

// --- fibers ---------------------------------------------------------------------------
struct Stack {
  char* base = nullptr;  // the lowest usable byte (a guard page lies below)
  size_t size = 0;
};
Stack* take_stack();
void give_stack(Stack* s);
// A fresh context on `s` that starts in `entry` (which never returns).
void* new_context(Stack* s, void (*entry)());
// Saves the running context in *save and continues the one at `to`.
extern "C" void hpcjudge_emu_switch(void** save, void* to);

// --- threads and blocks -----------------------------------------------------------------
struct Thread {
  enum State : uint8_t { Unstarted, Runnable, AtBarrier, AtWarp, Exited };
  uint3 idx{};
  unsigned linear = 0, warp = 0, lane = 0;
  State state = Unstarted;
  void* sp = nullptr;
  Stack* stack = nullptr;
  uint16_t epoch = 0;  // warp collectives this thread took part in (the race check's order within a warp)
  // At a block barrier.
  int line = 0;
  BarrierKind bkind = BarrierKind::Plain;
  int pred = 0, result = 0;
  // At a warp collective.
  WarpOp op = WarpOp::Sync;
  unsigned mask = 0;
  uint64_t value = 0, wresult = 0;
  int arg = 0, width = 32;
  bool is_signed = false;
};

// One warp's lanes by what they wait for, as bit masks, so that a lane arriving at a collective checks its warp in a
// few operations rather than lane by lane (warp.cpp).
struct WarpLanes {
  // Lanes waiting in one collective, all with the same operation and mask.
  struct Group {
    WarpOp op = WarpOp::Sync;
    unsigned mask = 0;
    uint32_t arrived = 0;
  };
  uint32_t exited = 0, at_barrier = 0;
  unsigned groups = 0;  // open collectives, at most one per lane
  Group group[32];
};

struct Block {
  uint3 idx{};
  unsigned nthreads = 0, nwarps = 0;
  unsigned arrived = 0, exited = 0;
  uint32_t serial = 0;    // a number no other block of the process had: the race check's fresh cells
  uint32_t interval = 0;  // block barriers completed
  std::vector<Thread> threads;
  std::vector<uint8_t> at_warp;  // per warp: lanes waiting in a warp collective (most checks skip a warp with none)
  std::vector<WarpLanes> lanes;  // per warp
  std::vector<unsigned> order;
};

struct Launch {
  const char* name = "";
  dim3 grid, block;
  size_t shared = 0;
  Body body = nullptr;
  void* closure = nullptr;
  sigjmp_buf env;
  pthread_t owner{};  // the host thread that runs the grid (a fault on another is host code's)
};

extern Launch* g_launch;  // the running grid, or null
extern Block g_block;
extern Thread* g_thread;  // the running emulated thread, or null (host code)
extern uint64_t g_launches;
extern uint64_t g_launches_before_call;  // g_launches when the runner's call began (runner::begin_call)

// Ends the running grid with `why` (a sticky error, as a kernel fault is on the GPU).
[[noreturn]] void fail(cudaError_t code, const std::string& why);
// "thread (x,y,z) of block (x,y,z)".
std::string describe_thread(unsigned linear);
std::string where_kernel();  // "in kernel NAME"
// Back to the scheduler until this thread may continue.
void yield();
std::string hex(uint64_t v);

// --- errors ----------------------------------------------------------------------------
void set_sticky(cudaError_t code, const std::string& detail);
void set_launch_error(cudaError_t code, const std::string& detail);
void note_host_error(const std::string& detail);  // host code touched device memory: RE, the call goes on
bool sticky_set();

// --- memory ------------------------------------------------------------------------------
enum class Access : uint8_t { Read, Write, Atomic };
// Checks an access of the running code (kernel or host) and, in shared memory, the race rule.
void check_access(uintptr_t addr, size_t size, Access kind);
void reset_shared_for_launch(size_t dynamic_bytes);
// Which memory a device address is in, for the counters (counters.h): global (the judge's buffers, cudaMalloc),
// shared, or other (host, a thread's stack); in a __shared__ variable, its start and bytes too (else 0).
enum class MemorySpace : uint8_t { Other, Global, Shared };
MemorySpace memory_space(uintptr_t addr, uintptr_t* var_start, size_t* var_bytes);
// Outside a kernel and the emulator's own copies and fills, the judge's buffers and every non-managed allocation
// are PROT_NONE, so host code cannot reach them through code the instrumentation does not see (the C library).
// A launch holds this for the grid: device memory open, and the lock that orders every change of protection
// (a failure to open, at the host memory limit, is a sticky cudaErrorMemoryAllocation).
class DeviceMemoryOpen {
 public:
  DeviceMemoryOpen();
  ~DeviceMemoryOpen();
  DeviceMemoryOpen(const DeviceMemoryOpen&) = delete;
  DeviceMemoryOpen& operator=(const DeviceMemoryOpen&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
  bool opened_ = false;
};
// The fault handler's part: a host access to closed device memory is recorded and device memory opened for the
// rest of the call (the access then completes, as an instrumented one does); false if `addr` is not closed device
// memory (a crash). report_host_fault() makes the record the call's error, and closes device memory again.
bool open_after_host_fault(uintptr_t addr, bool write);
void report_host_fault();
size_t max_dynamic_shared_optin();

// --- the device range's guard (guard.cpp) ---------------------------------------------------------
// From here on a call from any code but the wrappers below that changes a mapping in [lo, lo + bytes) kills the
// process (SIGSYS), as do userfaultfd and shmat with SHM_REMAP; every thread, once per process.
void guard_device_range(uintptr_t lo, size_t bytes);
// mmap, mprotect and madvise as the C library's, made by the one instruction the guard lets through: every change
// of the device range's mappings goes through them.
void* device_mmap(void* at, size_t bytes, int prot, int flags, int fd, long offset);
int device_mprotect(void* at, size_t bytes, int prot);
int device_madvise(void* at, size_t bytes, int advice);

}  // namespace hpcjudge_emu
