// What the judge can see of, and do about, another process's CUDA context that keeps work on the GPU between
// its calls (docs/design.md, "Device work between calls"; judge/isolation/device_lock.h). A child process (the
// runner, which has mapped the parent's allocation as a runner maps the judge's) keeps, in turn: nothing; a
// 30 ms kernel; a grid that polls a word of device memory and sleeps between looks (a kernel left running);
// a stream memory operation waiting on that word with a kernel queued behind it (work queued behind a wait).
//   1. the parent (the judge) times each kind of small device work of its own, issued then waited for, with the
//      child's context idle and with its grid resident (skipped with `nowaits`);
//   2. the driver's process lock (cuCheckpointProcessLock, 200 ms timeout) on the running child in each of those
//      states: its result, how long the lock and the unlock took; the judge's sequence (resume, lock, stop,
//      resume, unlock) over 3 x rounds cycles; whether a thread that launches in a loop is held while locked;
//      last, on a second child, a lock of it stopped, and an unlock of it stopped (each bounded: the child is
//      killed once a step has not returned after 3 s).
//   nvcc -O2 -arch=sm_90 -o busy_probe lab/busy_probe.cu -lcuda && ./busy_probe [rounds] [nowaits]
#include <cuda.h>
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe.h"

namespace {

using probe::check;
using probe::err_name;
using probe::now_us;

__global__ void nothing() {}

__global__ void resident(volatile int* quit, const volatile unsigned* watched) {
  if (threadIdx.x == 0)
    while (!*quit && *watched != 0xdeadbeefu) __nanosleep(2000);
  __syncthreads();
}

__global__ void spin_for(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

using WaitValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

long* g_loops = nullptr;  // shared with the parent (an anonymous shared mapping made before the fork)
std::atomic<bool> g_loop_on{false};

// The child: 'i' opens the parent's allocation (its IPC handle follows on the pipe, as a runner's MapDevice),
// 'g' launches the resident grid (ack at once), 's' ends it, 'k' launches a 30 ms kernel (ack at once),
// 'l' starts a thread that launches and synchronises in a loop (counting in g_loops), 'm' ends it,
// 'w' queues a wait and a kernel behind it (never released: the child is killed after), 'q' quits.
[[noreturn]] void child(int in, int out) {
  int* quit = nullptr;
  unsigned* watched = nullptr;
  check(cudaHostAlloc(&quit, sizeof(int), cudaHostAllocMapped), "child host");
  check(cudaMalloc(&watched, 4), "child malloc");
  check(cudaMemset(watched, 0, 4), "child memset");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "child stream");
  int sms = 0, khz = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  std::thread looper;
  char c = 0;
  if (write(out, &c, 1) != 1) std::exit(1);
  while (read(in, &c, 1) == 1 && c != 'q') {
    if (c == 'i') {
      cudaIpcMemHandle_t h;
      if (read(in, &h, sizeof h) != sizeof h) std::exit(1);
      void* p = nullptr;
      check(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess), "child ipc open");
    } else if (c == 'g') {
      *quit = 0;
      resident<<<4 * sms, 256, 0, s>>>(quit, watched);
      check(cudaGetLastError(), "child launch");
    } else if (c == 's') {
      *quit = 1;
      check(cudaStreamSynchronize(s), "child sync");
    } else if (c == 'k') {
      spin_for<<<1, 1, 0, s>>>(30LL * khz);
    } else if (c == 'l') {
      g_loop_on = true;
      looper = std::thread([] {
        cudaStream_t ls;
        check(cudaStreamCreateWithFlags(&ls, cudaStreamNonBlocking), "loop stream");
        while (g_loop_on) {
          nothing<<<1, 1, 0, ls>>>();
          cudaStreamSynchronize(ls);
          __atomic_add_fetch(g_loops, 1, __ATOMIC_SEQ_CST);
        }
      });
    } else if (c == 'm') {
      g_loop_on = false;
      looper.join();
    } else if (c == 'w') {
      WaitValue32 wait = nullptr;
      cudaDriverEntryPointQueryResult q;
      cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", reinterpret_cast<void**>(&wait), 12000,
                                       cudaEnableDefault, &q);
      if (!wait || wait(reinterpret_cast<CUstream>(s), reinterpret_cast<CUdeviceptr>(watched), 0xdeadbeefu,
                        CU_STREAM_WAIT_VALUE_EQ) != CUDA_SUCCESS)
        std::exit(2);
      nothing<<<1, 1, 0, s>>>();
    }
    if (write(out, &c, 1) != 1) std::exit(1);
  }
  std::exit(0);
}

// Every lock and unlock is bounded: a step that has not returned after 3 s has the child killed (as the judge's
// watchdog does, judge/isolation/device_lock.cpp), and the step's line then says how long it took with that.
std::atomic<const char*> g_step{nullptr};
std::atomic<double> g_since{0};
std::atomic<pid_t> g_child{0};
std::atomic<bool> g_killed{false};

void watchdog() {
  for (;;) {
    usleep(50000);
    const char* step = g_step.load();
    if (step && !g_killed && probe::now_us() - g_since.load() > 3e6) {
      std::printf("  (%s had not returned after 3 s: the child is killed)\n", step);
      std::fflush(stdout);
      g_killed = true;
      kill(g_child.load(), SIGKILL);
    }
  }
}

// One driver call, timed and watched (the watchdog's step while it runs).
template <class F>
CUresult watched(const char* step, double* took_ms, F call) {
  g_since = probe::now_us();
  g_step = step;
  const double t0 = probe::now_us();
  const CUresult r = call();
  *took_ms = (probe::now_us() - t0) / 1e3;
  g_step = nullptr;
  return r;
}

CUresult try_lock(pid_t pid, unsigned ms, const char* step, double* took_ms) {
  CUcheckpointLockArgs args{};
  args.timeoutMs = ms;
  return watched(step, took_ms, [&] { return cuCheckpointProcessLock(pid, &args); });
}

CUresult try_unlock(pid_t pid, const char* step, double* took_ms) {
  CUcheckpointUnlockArgs args{};
  return watched(step, took_ms, [&] { return cuCheckpointProcessUnlock(pid, &args); });
}

const char* state_name(pid_t pid) {
  CUprocessState st{};
  const CUresult r = cuCheckpointProcessGetState(pid, &st);
  if (r != CUDA_SUCCESS) return err_name(r);
  switch (st) {
    case CU_PROCESS_STATE_RUNNING: return "running";
    case CU_PROCESS_STATE_LOCKED: return "locked";
    case CU_PROCESS_STATE_CHECKPOINTED: return "checkpointed";
    case CU_PROCESS_STATE_FAILED: return "failed";
  }
  return "?";
}

constexpr unsigned kLockMs = 200;

struct Kind {
  const char* name;
  int ops;  // back to back, each waited for
  int what;  // 0 memset 4 B, 1 memset 64 MiB, 2 d2d 4 KiB, 3 d2d 64 MiB, 4 h2d 4 B, 5 h2d 64 MiB, 6 empty kernel, 7 event
};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 12;
  const bool waits = !(argc > 2 && std::string(argv[2]) == "nowaits");
  g_loops = static_cast<long*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  const probe::Child kid = probe::spawn(child);
  const probe::Child kid2 = probe::spawn(child);  // for the stopped steps, last: forked before this process's CUDA
  g_child = kid.pid;
  std::thread(watchdog).detach();
  const pid_t pid = kid.pid;
  const size_t big = size_t{64} << 20;
  char *a = nullptr, *b = nullptr, *h = nullptr;
  check(cudaMalloc(&a, big), "malloc");
  check(cudaMalloc(&b, big), "malloc");
  check(cudaMallocHost(&h, big), "host");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  cudaEvent_t e;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  {  // the child maps the parent's allocation, as a runner maps the judge's buffers
    cudaIpcMemHandle_t h;
    check(cudaIpcGetMemHandle(&h, a), "ipc handle");
    const char c = 'i';
    if (write(kid.to, &c, 1) != 1 || write(kid.to, &h, sizeof h) != sizeof h) std::exit(1);
    char r = 0;
    if (read(kid.from, &r, 1) != 1) std::exit(1);
  }
  const auto op = [&](int what) {
    const double t0 = now_us();
    switch (what) {
      case 0: check(cudaMemsetAsync(a, 1, 4, s), "memset"); break;
      case 1: check(cudaMemsetAsync(a, 1, big, s), "memset"); break;
      case 2: check(cudaMemcpyAsync(b, a, 4096, cudaMemcpyDeviceToDevice, s), "d2d"); break;
      case 3: check(cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice, s), "d2d"); break;
      case 4: check(cudaMemcpyAsync(a, h, 4, cudaMemcpyHostToDevice, s), "h2d"); break;
      case 5: check(cudaMemcpyAsync(a, h, big, cudaMemcpyHostToDevice, s), "h2d"); break;
      case 6: nothing<<<1, 1, 0, s>>>(); break;
      case 7: check(cudaEventRecord(e, s), "event"); break;
    }
    check(cudaStreamSynchronize(s), "sync");
    return now_us() - t0;
  };
  const std::vector<Kind> kinds = {{"memset 4 B", 1, 0},     {"memset 4 B x3", 3, 0}, {"memset 64 MiB", 1, 1},
                                   {"d2d 4 KiB", 1, 2},      {"d2d 4 KiB x3", 3, 2},  {"d2d 64 MiB", 1, 3},
                                   {"d2d 64 MiB x3", 3, 3},  {"h2d 4 B", 1, 4},       {"h2d 4 B x3", 3, 4},
                                   {"h2d 64 MiB", 1, 5},     {"empty kernel", 1, 6},  {"empty kernel x3", 3, 6},
                                   {"event", 1, 7}};
  std::printf("the parent's wait for its own device work, us (p10 / median / max of %d; xN: the slowest of N back "
              "to back)\n%-16s %28s %28s\n",
              rounds, "kind", "the child's context idle", "the child's grid resident");
  for (const Kind& k : kinds) {
    if (!waits) break;
    std::vector<double> took[2];
    for (int state = 0; state < 2; ++state) {
      if (state == 1) kid.ask('g');
      usleep(20000);
      for (int r = 0; r < rounds; ++r) {
        double slowest = 0;
        for (int i = 0; i < k.ops; ++i) slowest = std::max(slowest, op(k.what));
        took[state].push_back(slowest);
        usleep(2000);
      }
      if (state == 1) kid.ask('s');
    }
    std::printf("%-16s", k.name);
    for (auto& v : took) {
      std::sort(v.begin(), v.end());
      std::printf(" %8.1f / %8.1f / %8.1f", v[v.size() / 10], v[v.size() / 2], v.back());
    }
    std::printf("\n");
    std::fflush(stdout);
  }

  // 2. the driver's process lock, each step bounded by the watchdog
  std::printf("the driver's process lock on the child (timeout %u ms): result, ms to lock, ms to unlock\n",
              kLockMs);
  const auto lock = [&](const char* state, bool stopped) {
    if (stopped) kill(pid, SIGSTOP), usleep(5000);
    double lock_ms = 0;
    const CUresult r = try_lock(pid, kLockMs, state, &lock_ms);
    double unlock_ms = -1;
    if (r == CUDA_SUCCESS) {
      const CUresult ru = try_unlock(pid, state, &unlock_ms);
      if (ru != CUDA_SUCCESS) unlock_ms = -2;
    }
    std::printf("  %-22s %-8s %-28s %8.2f %8.2f  state after: %s\n", state, stopped ? "stopped" : "running",
                err_name(r), lock_ms, unlock_ms, state_name(pid));
    std::fflush(stdout);
    if (stopped) kill(pid, SIGCONT), usleep(5000);
  };
  // Running first: a lock that hangs on a stopped process must not hide the rest.
  lock("idle", false);
  kid.ask('k');  // a 30 ms kernel: the lock should wait for it
  lock("30 ms kernel", false);
  kid.ask('g');
  usleep(20000);
  lock("resident grid", false);
  kid.ask('s');
  lock("idle after the grid", false);

  // The judge's sequence: resume, lock, stop, (upload), resume, unlock; the unlock is what a call would pay.
  std::vector<double> locks, unlocks;
  for (int r = 0; r < rounds * 3; ++r) {
    kill(pid, SIGSTOP);
    usleep(2000);
    kill(pid, SIGCONT);
    double l = 0, u = 0;
    if (try_lock(pid, kLockMs, "cycle", &l) != CUDA_SUCCESS) {
      std::printf("  cycle %d: lock failed\n", r);
      break;
    }
    kill(pid, SIGSTOP);
    usleep(2000);
    kill(pid, SIGCONT);
    if (try_unlock(pid, "cycle", &u) != CUDA_SUCCESS) std::printf("  cycle %d: unlock failed\n", r);
    unlocks.push_back(u);
    locks.push_back(l);
  }
  const auto q = [](const char* what, const std::vector<double>& v) {
    const probe::Quantiles x = probe::quantiles(v);
    std::printf("  %-40s p10 %.3f  median %.3f  p90 %.3f ms (%zu)\n", what, x.p10, x.med, x.p90, v.size());
  };
  q("lock, idle child just resumed", locks);
  q("unlock, child resumed just before", unlocks);

  // Locked, a thread of the child that launches and synchronises in a loop makes no progress; unlocked it goes on.
  kid.ask('l');
  usleep(20000);
  {
    double l = 0, u = 0;
    const CUresult r = try_lock(pid, kLockMs, "looping thread", &l);
    const long c0 = *g_loops;
    usleep(50000);
    const long c1 = *g_loops;
    try_unlock(pid, "looping thread", &u);
    usleep(50000);
    const long c2 = *g_loops;
    std::printf("  a looping launcher: lock %s in %.2f ms; loops while locked %ld in 50 ms, after unlock %ld in 50 ms "
                "(unlock %.2f ms)\n",
                err_name(r), l, c1 - c0, c2 - c1, u);
  }
  kid.ask('m');  // the loop ends
  kid.ask('w');
  usleep(20000);
  lock("queued behind a wait", false);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  // Last, as the child may not survive them: a stopped child locked (200 ms timeout), then one locked running
  // and unlocked stopped (an unlock of a stopped child had not returned after 10 s on the H200).
  g_child = kid2.pid;
  kid2.ask('g');
  kid2.ask('s');
  const auto stopped_step = [&](bool lock_stopped) {
    double l = 0, u = -1;
    if (lock_stopped) kill(kid2.pid, SIGSTOP), usleep(5000);
    const CUresult r = try_lock(kid2.pid, kLockMs, lock_stopped ? "lock stopped" : "lock running", &l);
    CUresult ru = CUDA_SUCCESS;
    if (r == CUDA_SUCCESS) {
      if (!lock_stopped) kill(kid2.pid, SIGSTOP), usleep(5000);
      ru = try_unlock(kid2.pid, "unlock stopped", &u);
    }
    std::printf("  %s: lock %s in %.2f ms; unlock stopped %s in %.2f ms%s\n",
                lock_stopped ? "child stopped" : "child locked running, then stopped", err_name(r), l,
                err_name(ru), u, g_killed ? " (the child was killed)" : "");
    kill(kid2.pid, SIGCONT);
  };
  stopped_step(true);
  if (!g_killed) stopped_step(false);
  pid_t pid2 = kid2.pid;
  kill(pid2, SIGKILL);
  waitpid(pid2, nullptr, 0);
  std::printf("done\n");
  return 0;
}
