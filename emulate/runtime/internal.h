// The emulator's own state, shared by its parts (never seen by a submission):
//   fiber.cpp    the threads' stacks and the switch between them
//   launch.cpp   grids, blocks, the scheduler and the block barrier
//   workers.cpp  the threads that run a grid's blocks side by side, and a grid's failure
//   warp.cpp     warp collectives
//   memory.cpp   the device range, allocations, shared memory, every access checked, the race check
//   api.cpp      errors, streams, events, the device's description, atomics, what the runner asks
//   guard.cpp    the seccomp filter that keeps every other code from changing the device range's mappings
#pragma once
#include <pthread.h>

#include <atomic>
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
Stack* take_stack();  // from the running worker's pool
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
  uint64_t blocks = 0;                // in the grid
  std::atomic<uint64_t> next{0};      // the next block in linear order that no worker has taken
  std::atomic<uint64_t> stop{~0ull};  // the lowest block that failed: a block after it is abandoned
  // The failure of the lowest block that failed: the grid's error, as running the blocks one by one would give.
  std::mutex failure_mutex;
  cudaError_t failure = cudaSuccess;
  std::string failure_why;
};

// --- the workers: the threads that run a grid's blocks (workers.cpp) -------------------------
// Each has its own shared memory (a window of the device range), scheduler, stacks and race-check shadow; the host
// thread that launches is worker 0. A block runs on one worker, whole.
// One shadow cell per byte of shared memory: who touched it in the current barrier interval (memory.cpp).
struct Cell {
  uint32_t serial = 0, interval = 0;  // the block and interval the rest is for
  uint16_t w_tid = 0, w_epoch = 0;    // the last writer
  uint16_t r_tid = 0, r_epoch = 0;    // the last reader, and the highest epoch of the readers before it
  uint16_t r_others = 0, r_other_tid = 0;  // ... and one of them
  uint16_t a_tid = 0;                 // the last atomic
  uint8_t r_warp = 0;                 // the readers' warp, or kManyWarps
  uint8_t flags = 0;
};
struct Worker {
  unsigned index = 0;
  uintptr_t shared_base = 0;  // its shared-memory window
  Block block;
  Thread* running = nullptr;  // the emulated thread it runs (g_thread on its own thread)
  unsigned pos = 0;           // the running thread's place in the block's order (the scheduler's pass)
  void* scheduler_sp = nullptr;
  uint64_t linear_block = 0;  // the block it runs, in linear order
  bool busy = false;          // in a block now (for the report at a call's time limit)
  sigjmp_buf env;             // back to the worker's loop when its block fails or is abandoned
  std::vector<Stack*> free_stacks;
  std::vector<std::vector<Cell>> var_cells;  // per __shared__ variable, the race check's shadow
  std::vector<Cell> dynamic_cells;
  const char* dynamic_source = nullptr;  // the name dynamic_name was made from
  std::string dynamic_name = "the dynamic shared memory";
};
constexpr unsigned kMaxWorkers = 16;  // shared-memory windows in the device range (memory.cpp)
Worker& worker(unsigned i);           // 0 <= i < kMaxWorkers
unsigned workers_started();           // the workers whose state exists (the stall report reads them)
// The grid's blocks, taken in linear order by `n` workers at once (1: on the calling thread alone), each by
// run_block(); returns when all have ended.
void run_grid(Launch& l, unsigned n);
// How many workers a grid of `blocks` gets: one per CPU the process may run on, at most kMaxWorkers (four when
// the call counts accesses).
unsigned workers_for(uint64_t blocks);
void run_block(Worker& w, uint64_t linear);  // launch.cpp

extern Launch* g_launch;  // the running grid, or null
extern __thread Worker* g_worker __attribute__((tls_model("initial-exec")));  // this thread's, in a grid; else null
extern __thread Thread* g_thread __attribute__((tls_model("initial-exec")));  // the running emulated thread, or null (host code)
inline Block& current_block() { return g_worker->block; }
extern uint64_t g_launches;
extern uint64_t g_launches_before_call;  // g_launches when the runner's call began (runner::begin_call)

// Ends the running block with `why`; the grid's error (a sticky one, as a kernel fault is on the GPU) is that of its
// lowest block that failed.
[[noreturn]] void fail(cudaError_t code, const std::string& why);
// A block after the grid's lowest failed one stops at its next access or scheduling point, as if never run.
inline void stop_if_abandoned() {
  Worker* w = g_worker;
  if (__builtin_expect(w && w->linear_block > g_launch->stop.load(std::memory_order_relaxed), false))
    siglongjmp(w->env, 2);
}
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
// shared, or other (host, a thread's stack); in a __shared__ variable, its place in a worker's window and bytes too
// (else 0).
enum class MemorySpace : uint8_t { Other, Global, Shared };
MemorySpace memory_space(uintptr_t addr, uintptr_t* var_start, size_t* var_bytes);
// Whether a __shared__ variable's reference was made outside a grid (one at namespace scope, bound once to worker
// 0's window): then every grid runs on worker 0 alone.
bool shared_bound_outside_grid();
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
