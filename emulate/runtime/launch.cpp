// Grids and blocks. A launch runs at once, on the calling thread: its blocks one
// after another in the order of their linear index (as the GPU dispatches them),
// each block's threads as fibers. A thread runs until it waits (a block barrier,
// a warp collective) or ends; the scheduler then runs the next one that can. The
// order of the threads differs from block to block (warps shuffled, lanes forward
// or backward) and the race check does not depend on it, so no order hides a race.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <mutex>

#include "counters.h"
#include "internal.h"
#include "runner.h"

namespace hpcjudge_emu {

Launch* g_launch = nullptr;
Block g_block;
Thread* g_thread = nullptr;
uint64_t g_launches = 0;
uint64_t g_launches_before_call = 0;

namespace {

std::recursive_mutex launch_mutex;  // host threads of a submission launch one at a time
void* scheduler_sp = nullptr;
uint32_t block_serial = 0;
size_t optin_dynamic_shared = 0;

constexpr unsigned kMaxThreads = 1024;
constexpr size_t kDefaultShared = 48 * 1024, kMaxShared = 232448;  // H100/H200: 227 KiB with the opt-in

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string dims(dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

[[noreturn]] void thread_main() {
  g_launch->body(g_launch->closure);
  Thread& t = *g_thread;
  t.state = Thread::Exited;
  Block& b = g_block;
  ++b.exited;
  b.lanes[t.warp].exited |= 1u << t.lane;
  // A lane of this warp waiting at a collective that names this one can never go on.
  for (unsigned l = 0; l < 32 && b.at_warp[t.warp]; ++l) {
    const unsigned i = t.warp * 32 + l;
    if (i >= b.nthreads) break;
    const Thread& u = b.threads[i];
    if (u.state == Thread::AtWarp && (u.mask >> t.lane & 1u))
      fail(cudaErrorLaunchFailure,
           "warp collective mask mismatch " + where_kernel() + ": " + describe_thread(u.linear) +
               " waits in a warp collective (line " + std::to_string(u.line) + ") with mask " + hex(u.mask) +
               ", which names lane " + std::to_string(t.lane) + ", but " + describe_thread(t.linear) +
               " has exited");
  }
  if (b.arrived > 0 && b.arrived + b.exited == b.nthreads) {
    unsigned waiting = 0;
    for (const Thread& u : b.threads)
      if (u.state == Thread::AtBarrier) {
        waiting = u.linear;
        break;
      }
    fail(cudaErrorLaunchFailure,
         "barrier divergence " + where_kernel() + ": " + std::to_string(b.arrived) + " of the block's " +
             std::to_string(b.nthreads) + " threads wait at __syncthreads() (line " +
             std::to_string(b.threads[waiting].line) + "; " + describe_thread(waiting) + " among them) while " +
             std::to_string(b.exited) + " have exited without reaching it (" + describe_thread(t.linear) +
             " among them): every thread of a block must reach each barrier");
  }
  hpcjudge_emu_switch(&t.sp, scheduler_sp);
  __builtin_unreachable();
}

void resume(Thread& t) {
  if (t.state == Thread::Unstarted) {
    t.stack = take_stack();
    t.sp = new_context(t.stack, thread_main);
    t.state = Thread::Runnable;
  }
  g_thread = &t;
  threadIdx = t.idx;
  hpcjudge_emu_switch(&scheduler_sp, t.sp);
  g_thread = nullptr;
  if (t.state == Thread::Exited) {
    give_stack(t.stack);
    t.stack = nullptr;
  }
}

[[noreturn]] void deadlock() {
  const Block& b = g_block;
  std::string at_barrier, at_warp;
  unsigned nb = 0, nw = 0;
  for (const Thread& t : b.threads) {
    if (t.state == Thread::AtBarrier && nb++ == 0) at_barrier = describe_thread(t.linear) + " at line " + std::to_string(t.line);
    if (t.state == Thread::AtWarp && nw++ == 0)
      at_warp = describe_thread(t.linear) + " at line " + std::to_string(t.line) + " with mask " + hex(t.mask);
  }
  std::string why = "deadlock " + where_kernel() + ": ";
  if (nb) why += std::to_string(nb) + " threads wait at __syncthreads() (" + at_barrier + ")";
  if (nb && nw) why += " while ";
  if (nw) why += std::to_string(nw) + " threads wait in warp collectives (" + at_warp + ")";
  why += ", and no barrier or collective can complete (a mask that does not match the threads that arrive, or "
         "threads of one warp at a block barrier and at a warp collective)";
  fail(cudaErrorLaunchFailure, why);
}

void run_block(const dim3& bidx, uint64_t linear_block) {
  Block& b = g_block;
  const dim3 bd = g_launch->block;
  b.idx = {bidx.x, bidx.y, bidx.z};
  b.nthreads = bd.x * bd.y * bd.z;
  b.nwarps = (b.nthreads + 31) / 32;
  b.arrived = b.exited = 0;
  b.serial = ++block_serial;
  b.interval = 0;
  b.threads.resize(b.nthreads);
  b.at_warp.assign(b.nwarps, 0);
  b.lanes.resize(b.nwarps);
  for (WarpLanes& w : b.lanes) w.exited = w.at_barrier = w.groups = 0;
  for (unsigned i = 0; i < b.nthreads; ++i) {
    Thread& t = b.threads[i];
    t = Thread{};
    t.linear = i;
    t.idx = {i % bd.x, (i / bd.x) % bd.y, i / (bd.x * bd.y)};
    t.warp = i / 32;
    t.lane = i % 32;
  }
  // The order: warps shuffled, lanes forward or backward, from the launch and the block.
  const uint64_t seed = mix(g_launches * 0x100000001b3ull ^ linear_block);
  std::vector<unsigned> warps(b.nwarps);
  for (unsigned w = 0; w < b.nwarps; ++w) warps[w] = w;
  uint64_t r = seed;
  for (unsigned w = b.nwarps; w > 1; --w) {
    r = mix(r);
    std::swap(warps[w - 1], warps[r % w]);
  }
  const bool backward = seed >> 63;
  b.order.clear();
  for (unsigned w : warps) {
    const unsigned first = w * 32, last = std::min(b.nthreads, first + 32);
    if (backward)
      for (unsigned i = last; i-- > first;) b.order.push_back(i);
    else
      for (unsigned i = first; i < last; ++i) b.order.push_back(i);
  }
  blockIdx = b.idx;
  if (counters::g_on) counters::block_begin();
  while (b.exited < b.nthreads) {
    bool ran = false;
    for (unsigned i : b.order) {
      Thread& t = b.threads[i];
      if (t.state == Thread::Unstarted || t.state == Thread::Runnable) {
        resume(t);
        ran = true;
      }
    }
    if (!ran) deadlock();
  }
  if (counters::g_on) counters::block_end();
}

void complete_barrier(Thread& caller) {
  Block& b = g_block;
  int count = 0;
  bool all = true, any = false;
  for (const Thread& t : b.threads) {
    if (t.line != caller.line || t.bkind != caller.bkind)
      fail(cudaErrorLaunchFailure,
           "barrier divergence " + where_kernel() + ": " + describe_thread(t.linear) + " waits at the barrier of line " +
               std::to_string(t.line) + " while " + describe_thread(caller.linear) + " waits at line " +
               std::to_string(caller.line) + ": every thread of a block must reach the same barriers");
    count += t.pred != 0;
    all = all && t.pred != 0;
    any = any || t.pred != 0;
  }
  const int result = caller.bkind == BarrierKind::Count ? count
                     : caller.bkind == BarrierKind::And ? all
                     : caller.bkind == BarrierKind::Or  ? any
                                                        : 0;
  for (Thread& t : b.threads) {
    t.state = Thread::Runnable;
    t.result = result;
  }
  for (WarpLanes& w : b.lanes) w.at_barrier = 0;
  b.arrived = 0;
  ++b.interval;
  if (counters::g_on) counters::barrier_completed();
}

}  // namespace

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string describe_thread(unsigned linear) {
  const dim3 bd = g_launch ? g_launch->block : dim3();
  const uint3 t{linear % bd.x, (linear / bd.x) % bd.y, linear / (bd.x * bd.y)};
  return "thread (" + std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) + ") of block (" +
         std::to_string(g_block.idx.x) + "," + std::to_string(g_block.idx.y) + "," + std::to_string(g_block.idx.z) +
         ")";
}

std::string where_kernel() { return std::string("in kernel ") + (g_launch ? g_launch->name : "?"); }

void yield() {
  Thread& t = *g_thread;
  hpcjudge_emu_switch(&t.sp, scheduler_sp);
  g_thread = &t;
  threadIdx = t.idx;
}

[[noreturn]] void fail(cudaError_t code, const std::string& why) {
  set_sticky(code, why);
  siglongjmp(g_launch->env, 1);
}

void set_max_dynamic_shared(size_t bytes) { optin_dynamic_shared = std::max(optin_dynamic_shared, bytes); }
size_t max_dynamic_shared_optin() { return optin_dynamic_shared; }

void launch(const char* name, const LaunchConfig& cfg, Body body, void* closure) {
  std::lock_guard lock(launch_mutex);
  if (g_launch)
    return set_sticky(cudaErrorNotSupported,
                      std::string("not supported by CPU emulation: a kernel launch from device code (dynamic "
                                  "parallelism, ") + name + " launched " + where_kernel() + "); judge on a GPU");
  if (sticky_set()) return;
  const dim3 g = cfg.grid, bl = cfg.block;
  const std::string what = std::string("kernel ") + name + " launched with grid " + dims(g) + " and block " + dims(bl);
  const unsigned long long threads = static_cast<unsigned long long>(bl.x) * bl.y * bl.z;
  if (g.x == 0 || g.y == 0 || g.z == 0)
    return set_launch_error(cudaErrorInvalidConfiguration, what + ": a grid without blocks");
  if (bl.x == 0 || bl.y == 0 || bl.z == 0) return set_launch_error(cudaErrorInvalidConfiguration, what + ": a block without threads");
  if (threads > kMaxThreads || bl.x > 1024 || bl.y > 1024 || bl.z > 64)
    return set_launch_error(cudaErrorInvalidConfiguration,
                            what + ": " + std::to_string(threads) + " threads per block (at most 1024; 1024 x 1024 x 64 per dimension)");
  if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
    return set_launch_error(cudaErrorInvalidConfiguration, what + ": the grid is larger than 2^31-1 x 65535 x 65535");
  if (cfg.shared > kMaxShared || (cfg.shared > kDefaultShared && cfg.shared > optin_dynamic_shared))
    return set_launch_error(cudaErrorInvalidValue,
                            what + " asks for " + std::to_string(cfg.shared) +
                                " bytes of dynamic shared memory: at most 49152 without cudaFuncSetAttribute("
                                "cudaFuncAttributeMaxDynamicSharedMemorySize), and 232448 with it");
  const DeviceMemoryOpen open;  // device memory reachable for the grid, closed to the host again after it
  if (sticky_set()) return;
  Launch l;
  l.name = name;
  l.grid = g;
  l.block = bl;
  l.shared = cfg.shared;
  l.body = body;
  l.closure = closure;
  l.owner = pthread_self();
  ++g_launches;
  reset_shared_for_launch(cfg.shared);
  const uint3 saved_t = threadIdx, saved_b = blockIdx;
  const dim3 saved_bd = blockDim, saved_gd = gridDim;
  blockDim = bl;
  gridDim = g;
  g_launch = &l;
  if (counters::g_on) counters::launch_begin(l);
  if (sigsetjmp(l.env, 1) == 0) {
    uint64_t linear = 0;
    for (unsigned z = 0; z < g.z; ++z)
      for (unsigned y = 0; y < g.y; ++y)
        for (unsigned x = 0; x < g.x; ++x) run_block(dim3(x, y, z), linear++);
  } else {
    // A thread failed: the grid ends there. Its threads' stacks go back to the pool.
    for (Thread& t : g_block.threads)
      if (t.stack) {
        give_stack(t.stack);
        t.stack = nullptr;
      }
  }
  if (counters::g_on) counters::launch_end();
  g_launch = nullptr;
  g_thread = nullptr;
  threadIdx = saved_t;
  blockIdx = saved_b;
  blockDim = saved_bd;
  gridDim = saved_gd;
}

int block_barrier(BarrierKind kind, int predicate, int line) {
  Thread* self = g_thread;
  if (!self) return 0;  // host code: nothing to wait for
  Thread& t = *self;
  Block& b = g_block;
  // A lane of this warp waiting in a collective that names this thread waits for ever.
  for (unsigned l = 0; l < 32 && b.at_warp[t.warp]; ++l) {
    const unsigned i = t.warp * 32 + l;
    if (i >= b.nthreads) break;
    const Thread& u = b.threads[i];
    if (u.state == Thread::AtWarp && (u.mask >> t.lane & 1u))
      fail(cudaErrorLaunchFailure, "warp collective mask mismatch " + where_kernel() + ": " + describe_thread(u.linear) +
                                       " waits in a warp collective (line " + std::to_string(u.line) + ") with mask " +
                                       hex(u.mask) + " while " + describe_thread(t.linear) +
                                       ", which it names, waits at __syncthreads() (line " + std::to_string(line) + ")");
  }
  t.state = Thread::AtBarrier;
  b.lanes[t.warp].at_barrier |= 1u << t.lane;
  t.line = line;
  t.bkind = kind;
  t.pred = predicate;
  ++b.arrived;
  if (b.arrived == b.nthreads) {
    complete_barrier(t);
    return t.result;
  }
  if (b.arrived + b.exited == b.nthreads)
    fail(cudaErrorLaunchFailure,
         "barrier divergence " + where_kernel() + ": " + describe_thread(t.linear) + " waits at __syncthreads() (line " +
             std::to_string(line) + ") but " + std::to_string(b.exited) + " of the block's " +
             std::to_string(b.nthreads) + " threads have exited without reaching it: every thread of a block must "
             "reach each barrier (an early return before __syncthreads())");
  yield();
  return t.result;
}

void fence() { std::atomic_signal_fence(std::memory_order_seq_cst); }

// --- what was running at a call's time limit (kStallSignal, emulate/runtime/runner.h) ------------------------
namespace {

// One line in a fixed buffer: it is made in a signal handler, where nothing may allocate.
struct StallLine {
  char text[1024];
  size_t used = 0;
  template <class... A>
  void add(const char* format, A... args) {
    if (used >= sizeof text) return;
    const int n = std::snprintf(text + used, sizeof text - used, format, args...);
    if (n > 0) used = std::min(sizeof text - 1, used + static_cast<size_t>(n));
  }
  void thread(const Thread& t) {
    add("(%u,%u,%u) ", t.idx.x, t.idx.y, t.idx.z);
    if (&t == g_thread) add("running");
    else if (t.state == Thread::AtBarrier) add("at __syncthreads() (line %d)", t.line);
    else if (t.state == Thread::AtWarp) add("in a warp collective (line %d)", t.line);
    else if (t.state == Thread::Unstarted) add("not started");
    else add("waiting its turn");
  }
};

// The grid, the block that was running (its place among the grid's blocks) and up to four of its threads that had
// not ended, the running one first.
void describe_stall(StallLine& l, const Launch& g) {
  const Block& b = g_block;
  const uint64_t blocks = uint64_t{g.grid.x} * g.grid.y * g.grid.z;
  const uint64_t at = b.idx.x + uint64_t{g.grid.x} * (b.idx.y + uint64_t{g.grid.y} * b.idx.z);
  l.add("kernel %s (grid (%u,%u,%u), blocks of (%u,%u,%u) threads) was still running in block (%u,%u,%u), block %llu "
        "of %llu in launch order (%llu after it not started); ",
        g.name, g.grid.x, g.grid.y, g.grid.z, g.block.x, g.block.y, g.block.z, b.idx.x, b.idx.y, b.idx.z,
        static_cast<unsigned long long>(at + 1), static_cast<unsigned long long>(blocks),
        static_cast<unsigned long long>(blocks - at - 1));
  const unsigned open = b.nthreads - b.exited;
  l.add("%u of its %u threads had not ended: ", open, b.nthreads);
  unsigned listed = 0;
  if (g_thread) l.thread(*g_thread), ++listed;
  for (unsigned i = 0; i < b.nthreads && listed < 4; ++i) {
    const Thread& t = b.threads[i];
    if (&t == g_thread || t.state == Thread::Exited) continue;
    l.add(", ");
    l.thread(t);
    ++listed;
  }
  if (open > listed) l.add(" and %u more", open - listed);
}

void on_stall_signal(int) {
  const int saved = errno;
  static StallLine l;  // static: the handler's stack may be a fiber's
  l.used = 0;
  l.add("\n%s", kStallMark);
  const Launch* g = g_launch;
  if (g && g_block.threads.size() == g_block.nthreads) describe_stall(l, *g);
  else l.add("no kernel was running at the limit (host code was)");
  const auto launches = static_cast<unsigned long long>(g_launches - g_launches_before_call);
  l.add("; %llu kernel launch%s in the call", launches, launches == 1 ? "" : "es");
  l.add("\n");
  for (size_t at = 0; at < l.used;) {
    const ssize_t n = write(2, l.text + at, l.used - at);
    if (n <= 0) break;
    at += static_cast<size_t>(n);
  }
  errno = saved;
}

}  // namespace

void install_stall_report() {
  struct sigaction sa {};
  sa.sa_handler = on_stall_signal;
  sa.sa_flags = SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(kStallSignal, &sa, nullptr);
}

}  // namespace hpcjudge_emu

uint3 threadIdx{0, 0, 0};
uint3 blockIdx{0, 0, 0};
dim3 blockDim{1, 1, 1};
dim3 gridDim{1, 1, 1};
