// Grids and blocks. A launch runs at once: its blocks are taken in the order of
// their linear index (as the GPU dispatches them) by the workers (workers.cpp:
// the calling thread, and one more thread per CPU where the grid has blocks to
// spare), each block whole on one worker, its threads as fibers. A thread runs
// until it waits (a block barrier, a warp collective) or ends; the worker's
// scheduler then runs the next one that can. The order of the threads differs
// from block to block (warps shuffled, lanes forward or backward) and the race
// check does not depend on it, so no order hides a race.
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
__thread Worker* g_worker __attribute__((tls_model("initial-exec"))) = nullptr;
__thread Thread* g_thread __attribute__((tls_model("initial-exec"))) = nullptr;
uint64_t g_launches = 0;
uint64_t g_launches_before_call = 0;

namespace {

std::recursive_mutex launch_mutex;  // host threads of a submission launch one at a time
std::atomic<uint32_t> block_serial{0};
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
  std::string s = "(";  // appended: GCC 12 warns of a false overlap (-Wrestrict) in "(" + std::to_string(...)
  s.append(std::to_string(d.x)).append(",").append(std::to_string(d.y)).append(",").append(std::to_string(d.z));
  return s.append(")");
}

[[noreturn]] void thread_main() {
  g_launch->body(g_launch->closure);
  Thread& t = *g_thread;
  t.state = Thread::Exited;
  Block& b = current_block();
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
  hpcjudge_emu_switch(&t.sp, g_worker->scheduler_sp);
  __builtin_unreachable();
}

bool can_run(const Thread& t) { return t.state == Thread::Unstarted || t.state == Thread::Runnable; }

// `t` made the running thread, its context made first if it has none.
void enter(Worker& w, Thread& t) {
  if (t.state == Thread::Unstarted) {
    t.stack = take_stack();
    t.sp = new_context(t.stack, thread_main);
    t.state = Thread::Runnable;
  }
  g_thread = w.running = &t;
  threadIdx = t.idx;
}

// Runs `t` and the threads it hands the worker to (yield()), until one comes back to the scheduler: the last of
// the pass to wait, or one that exited (its stack back to the pool).
void resume(Worker& w, Thread& t) {
  enter(w, t);
  hpcjudge_emu_switch(&w.scheduler_sp, t.sp);
  Thread& back = *w.running;
  g_thread = w.running = nullptr;
  if (back.state == Thread::Exited) {
    give_stack(back.stack);
    back.stack = nullptr;
  }
}

[[noreturn]] void deadlock() {
  const Block& b = current_block();
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

}  // namespace

void run_block(Worker& w, uint64_t linear_block) {
  Block& b = w.block;
  const dim3 bd = g_launch->block, g = g_launch->grid;
  b.idx = {static_cast<unsigned>(linear_block % g.x), static_cast<unsigned>(linear_block / g.x % g.y),
           static_cast<unsigned>(linear_block / (uint64_t{g.x} * g.y))};
  b.nthreads = bd.x * bd.y * bd.z;
  b.nwarps = (b.nthreads + 31) / 32;
  b.arrived = b.exited = 0;
  b.serial = block_serial.fetch_add(1, std::memory_order_relaxed) + 1;
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
  // Passes over the order: each runnable thread in turn (w.pos, which yield() moves on where it hands over).
  const unsigned n = static_cast<unsigned>(b.order.size());
  while (b.exited < b.nthreads) {
    stop_if_abandoned();
    bool ran = false;
    for (w.pos = 0; w.pos < n; ++w.pos) {
      Thread& t = b.threads[b.order[w.pos]];
      if (can_run(t)) {
        resume(w, t);
        ran = true;
      }
    }
    if (!ran) deadlock();
  }
  if (counters::g_on) counters::block_end();
}

namespace {

void complete_barrier(Thread& caller) {
  Block& b = current_block();
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
  const uint3 b = g_worker ? g_worker->block.idx : uint3{0, 0, 0};
  return "thread (" + std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) + ") of block (" +
         std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

std::string where_kernel() { return std::string("in kernel ") + (g_launch ? g_launch->name : "?"); }

// Straight to the next thread of the pass that can run (one switch, as the scheduler would choose it), or back to
// the scheduler where none is left in the pass.
void yield() {
  Thread& t = *g_thread;
  Worker& w = *g_worker;
  const Block& b = w.block;
  const unsigned n = static_cast<unsigned>(b.order.size());
  unsigned p = w.pos + 1;
  while (p < n && !can_run(b.threads[b.order[p]])) ++p;
  w.pos = p;
  if (p < n) {
    Thread& next = w.block.threads[b.order[p]];
    enter(w, next);
    hpcjudge_emu_switch(&t.sp, next.sp);
  } else {
    hpcjudge_emu_switch(&t.sp, w.scheduler_sp);
  }
  g_thread = w.running = &t;
  threadIdx = t.idx;
}

[[noreturn]] void fail(cudaError_t code, const std::string& why) {
  Worker& w = *g_worker;
  Launch& l = *g_launch;
  {
    std::lock_guard lock(l.failure_mutex);
    // Only the lowest block's failure is the grid's: the one running the blocks one by one would meet first.
    if (w.linear_block < l.stop.load(std::memory_order_relaxed)) {
      l.failure = code;
      l.failure_why = why;
      l.stop.store(w.linear_block, std::memory_order_relaxed);
    }
  }
  siglongjmp(w.env, 1);
}

void set_max_dynamic_shared(size_t bytes) { optin_dynamic_shared = std::max(optin_dynamic_shared, bytes); }
size_t max_dynamic_shared_optin() { return optin_dynamic_shared; }

void launch(const char* name, const LaunchConfig& cfg, Body body, void* closure) {
  // From device code (before the lock, which the host thread that launched the running grid holds).
  if (g_thread)
    return set_sticky(cudaErrorNotSupported,
                      std::string("not supported by CPU emulation: a kernel launch from device code (dynamic "
                                  "parallelism, ") + name + " launched " + where_kernel() + "); judge on a GPU");
  std::lock_guard lock(launch_mutex);
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
  l.blocks = uint64_t{g.x} * g.y * g.z;
  ++g_launches;
  reset_shared_for_launch(cfg.shared);
  const uint3 saved_t = threadIdx, saved_b = blockIdx;
  const dim3 saved_bd = blockDim, saved_gd = gridDim;
  blockDim = bl;
  gridDim = g;
  g_launch = &l;
  if (counters::g_on) counters::launch_begin(l);
  run_grid(l, workers_for(l.blocks));
  if (l.failure != cudaSuccess) set_sticky(l.failure, l.failure_why);  // a thread failed: the grid ended there
  if (counters::g_on) counters::launch_end();
  g_launch = nullptr;
  threadIdx = saved_t;
  blockIdx = saved_b;
  blockDim = saved_bd;
  gridDim = saved_gd;
}

int block_barrier(BarrierKind kind, int predicate, int line) {
  Thread* self = g_thread;
  if (!self) return 0;  // host code: nothing to wait for
  Thread& t = *self;
  Block& b = current_block();
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

void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }  // blocks run side by side

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
  void thread(const Thread& t, const Thread* running) {
    add("(%u,%u,%u) ", t.idx.x, t.idx.y, t.idx.z);
    if (&t == running) add("running");
    else if (t.state == Thread::AtBarrier) add("at __syncthreads() (line %d)", t.line);
    else if (t.state == Thread::AtWarp) add("in a warp collective (line %d)", t.line);
    else if (t.state == Thread::Unstarted) add("not started");
    else add("waiting its turn");
  }
};

// The grid, the first block in launch order that was running (its place among the grid's blocks, the others
// running beside it on other workers) and up to four of its threads that had not ended, the running one first.
void describe_stall(StallLine& l, const Launch& g, const Worker& w, unsigned beside) {
  const Block& b = w.block;
  const uint64_t at = w.linear_block, started = std::min(g.blocks, g.next.load(std::memory_order_relaxed));
  l.add("kernel %s (grid (%u,%u,%u), blocks of (%u,%u,%u) threads) was still running in block (%u,%u,%u), block %llu "
        "of %llu in launch order (%llu after it not started",
        g.name, g.grid.x, g.grid.y, g.grid.z, g.block.x, g.block.y, g.block.z, b.idx.x, b.idx.y, b.idx.z,
        static_cast<unsigned long long>(at + 1), static_cast<unsigned long long>(g.blocks),
        static_cast<unsigned long long>(g.blocks - std::max(started, at + 1)));
  if (beside) l.add(", %u running beside it", beside);
  const unsigned open = b.nthreads - b.exited;
  l.add("); %u of its %u threads had not ended: ", open, b.nthreads);
  const Thread* running = w.running;
  unsigned listed = 0;
  if (running) l.thread(*running, running), ++listed;
  for (unsigned i = 0; i < b.nthreads && listed < 4; ++i) {
    const Thread& t = b.threads[i];
    if (&t == running || t.state == Thread::Exited) continue;
    if (listed) l.add(", ");
    l.thread(t, running);
    ++listed;
  }
  if (open > listed) l.add(" and %u more", open - listed);
}

// The busy worker with the first block in launch order, or null; `beside`: how many others are busy.
const Worker* first_busy(unsigned* beside) {
  const Worker* first = nullptr;
  *beside = 0;
  for (unsigned i = 0; i < workers_started(); ++i) {
    const Worker& w = worker(i);
    if (!w.busy || w.block.threads.size() != w.block.nthreads) continue;
    if (first) ++*beside;
    if (!first || w.linear_block < first->linear_block) first = &w;
  }
  return first;
}

void on_stall_signal(int) {
  const int saved = errno;
  static StallLine l;  // static: the handler's stack may be a fiber's
  l.used = 0;
  l.add("\n%s", kStallMark);
  const Launch* g = g_launch;
  unsigned beside = 0;
  const Worker* w = g ? first_busy(&beside) : nullptr;
  if (w) describe_stall(l, *g, *w, beside);
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

__thread uint3 threadIdx __attribute__((tls_model("initial-exec"))) {0, 0, 0};
__thread uint3 blockIdx __attribute__((tls_model("initial-exec"))) {0, 0, 0};
dim3 blockDim{1, 1, 1};
dim3 gridDim{1, 1, 1};
