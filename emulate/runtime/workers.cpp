// The workers: the threads that run a grid's blocks side by side. The host thread that launches is worker 0;
// where the grid has blocks to spare, one more thread per CPU the process may run on (at most kMaxWorkers) takes
// blocks too. A worker takes the next block in linear order, so a block that waits for an earlier one (a
// look-back) finds it running or done, as on the GPU; a block runs whole on its worker, with that worker's shared
// memory, scheduler and race-check shadow, so the race, barrier and collective checks are those of one block run
// alone. A block that fails ends the grid there: the blocks after it stop at their next access or scheduling point
// (stop_if_abandoned), the ones before it run to their end, and the grid's error is the lowest failed block's,
// as running the blocks one by one gives it.
#include <sched.h>
#include <signal.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "counters.h"
#include "internal.h"

namespace hpcjudge_emu {

namespace {

// Never destroyed: the helpers wait on the pool until the process ends, and a condition variable destroyed under
// its waiters, at exit, blocks the exit.
Worker* made_workers() {
  auto* w = new Worker[kMaxWorkers];
  for (unsigned i = 0; i < kMaxWorkers; ++i) w[i].index = i;
  return w;
}
Worker* const workers = made_workers();

// The helper threads (workers 1 and up), started at the first grid that has blocks to spare, then waiting for the
// next grid.
struct Pool {
  std::mutex mutex;
  std::condition_variable go, done;
  uint64_t generation = 0;  // grids handed out
  Launch* grid = nullptr;
  unsigned taking = 0;      // workers of this grid (the helpers below it take part)
  unsigned busy = 0;        // helpers not yet done with it
  unsigned started = 0;     // helper threads running
};
Pool& pool = *new Pool;
std::atomic<unsigned> states{1};  // workers whose state is set up (worker 0's from the start)

// A failed or abandoned block's threads' stacks back to the worker's pool.
void release_block(Worker& w) {
  for (Thread& t : w.block.threads)
    if (t.stack) {
      give_stack(t.stack);
      t.stack = nullptr;
    }
  w.running = nullptr;
  g_thread = nullptr;
}

// Takes blocks in linear order until the grid has none left, or none before its lowest failed block.
void work(Launch& l, Worker& w) {
  g_worker = &w;
  g_shared_base = w.shared_base;
  if (sigsetjmp(w.env, 1) != 0) {  // a block failed (fail()) or was abandoned: its end, then the next one
    if (counters::g_on) counters::block_end();  // its open requests closed here, where its block is known
    release_block(w);
  }
  for (;;) {
    w.busy = false;
    const uint64_t i = l.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= l.blocks || i > l.stop.load(std::memory_order_relaxed)) break;
    w.linear_block = i;
    w.busy = true;
    run_block(w, i);
  }
  g_worker = nullptr;
  g_shared_base = 0;
}

void helper(unsigned index) {
  // An alternate stack of its own for the fault handler (a fiber's stack overflowing faults on it); the thread
  // lives as long as the process.
  constexpr size_t kAltStack = 64 * 1024;
  stack_t ss{};
  ss.ss_sp = new char[kAltStack];
  ss.ss_size = kAltStack;
  sigaltstack(&ss, nullptr);
  uint64_t seen = 0;
  std::unique_lock lock(pool.mutex);
  for (;;) {
    pool.go.wait(lock, [&] { return pool.generation != seen; });
    seen = pool.generation;
    if (index >= pool.taking) continue;
    Launch& l = *pool.grid;
    lock.unlock();
    work(l, worker(index));
    lock.lock();
    if (--pool.busy == 0) pool.done.notify_all();
  }
}

unsigned cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return static_cast<unsigned>(CPU_COUNT(&set));
}

}  // namespace

Worker& worker(unsigned i) { return workers[i]; }

unsigned workers_started() { return states.load(std::memory_order_acquire); }

unsigned workers_for(uint64_t blocks) {
  if (blocks < 2 || shared_bound_outside_grid()) return 1;
  // Counting, each worker holds up to 64 MiB of open requests (counters.cpp): four at most.
  const uint64_t most = counters::g_on ? 4 : kMaxWorkers;
  return static_cast<unsigned>(std::min<uint64_t>({cpus(), most, blocks}));
}

void run_grid(Launch& l, unsigned n) {
  if (n > 1) {
    std::lock_guard lock(pool.mutex);
    while (pool.started + 1 < n) {  // threads made once, kept for the next grid
      try {
        std::thread(helper, pool.started + 1).detach();
      } catch (const std::system_error&) {
        break;  // no more threads (the runner's task limit): the grid runs on those there are
      }
      ++pool.started;
      states.store(pool.started + 1, std::memory_order_release);
    }
    n = std::min(n, pool.started + 1);
    pool.grid = &l;
    pool.taking = n;
    pool.busy = n - 1;
    ++pool.generation;
    pool.go.notify_all();
  }
  work(l, worker(0));
  if (n > 1) {
    std::unique_lock lock(pool.mutex);
    pool.done.wait(lock, [] { return pool.busy == 0; });
    pool.grid = nullptr;
  }
}

}  // namespace hpcjudge_emu
