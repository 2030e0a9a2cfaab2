// When the driver's unlock of a runner is asked for, and what a call's interval pays for it
// (docs/design.md, "Device work between calls"; judge/isolation/device_lock.h). A child process (the runner)
// waits in read() on a pipe, as a runner waits for its request; each request makes it launch a one-thread kernel
// and synchronise, and it writes, on the monotonic clock, when it read the request and when its synchronise
// returned. Each round the parent (the judge) locks the child running, stops it (SIGSTOP) and waits 2 ms; then
// the request is written and the clock starts (t0), and in turn:
//   after:  SIGCONT, then the unlock, on the parent's thread (the judge's sequence until now);
//   before: the unlock asked for on a thread of the parent's while the child is still stopped, `lead` us before
//           t0; at t0 SIGCONT, and the parent spins until that thread's call has returned.
// Printed per way (p10 / median / p90 in us from t0, rounds in turn): the unlock's return, the child's read, its
// synchronise's return, the reply; and for `before`, how many unlocks returned before t0 (before the child ran)
// and whether the child ever read a request before t0. A thread spinning at SCHED_IDLE on each CPU keeps the
// CPUs awake, as the judge's spinners do in a timed call (judge/timing/wake_latency.h).
//   nvcc -O2 -arch=sm_90 -o unlock_probe lab/unlock_probe.cu -lcuda && ./unlock_probe [rounds] [lead_us]
#include <cuda.h>
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "probe.h"

namespace {

using probe::check;
using probe::err_name;
using probe::now_us;

__global__ void nothing() {}

struct Marks {
  double read_us, synced_us;
};
Marks* g_marks = nullptr;  // shared with the child (an anonymous shared mapping made before the fork)

[[noreturn]] void child(int in, int out) {
  check(cudaFree(nullptr), "child context");
  nothing<<<1, 1>>>();
  check(cudaDeviceSynchronize(), "child warm-up");
  char c = 0;
  if (write(out, &c, 1) != 1) std::exit(1);
  while (read(in, &c, 1) == 1 && c != 'q') {
    g_marks->read_us = now_us();
    nothing<<<1, 1>>>();
    check(cudaDeviceSynchronize(), "child sync");
    g_marks->synced_us = now_us();
    if (write(out, &c, 1) != 1) std::exit(1);
  }
  std::exit(0);
}

std::atomic<bool> g_spin{true};

void spinner(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  sched_param none{};
  pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
  unsigned n = 0;
  while (g_spin.load(std::memory_order_relaxed))
    if (++n % 64 == 0) sched_yield();
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  const double lead_us = argc > 2 ? std::atof(argv[2]) : 300;
  g_marks = static_cast<Marks*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  const probe::Child kid = probe::spawn(child);
  const pid_t pid = kid.pid;
  check(cudaFree(nullptr), "parent context");
  std::vector<std::thread> spinners;
  for (int cpu = 0; cpu < static_cast<int>(std::thread::hardware_concurrency()); ++cpu) spinners.emplace_back(spinner, cpu);

  struct Way {
    const char* name;
    std::vector<double> unlocked, read, synced, replied;
    int unlocked_before_t0 = 0, read_before_t0 = 0, failed = 0;
  } ways[2] = {{"after"}, {"before"}};
  for (int r = 0; r < 2 * rounds; ++r) {
    Way& w = ways[r % 2];
    const bool early = r % 2 == 1;
    CUcheckpointLockArgs la{};
    la.timeoutMs = 200;
    const CUresult lr = cuCheckpointProcessLock(pid, &la);
    if (lr != CUDA_SUCCESS) {
      std::printf("round %d: lock %s\n", r, err_name(lr));
      return 1;
    }
    kill(pid, SIGSTOP);
    usleep(2000);
    std::atomic<int> done{0};  // 1: returned with success, 2: with an error
    std::atomic<double> returned_us{0};
    std::thread unlocker;
    CUresult early_result = CUDA_SUCCESS;
    if (early) {
      unlocker = std::thread([&] {
        CUcheckpointUnlockArgs ua{};
        early_result = cuCheckpointProcessUnlock(pid, &ua);
        returned_us = now_us();
        done = early_result == CUDA_SUCCESS ? 1 : 2;
      });
      const double until = now_us() + lead_us;
      while (now_us() < until) {
      }
    }
    const char c = 'c';
    if (write(kid.to, &c, 1) != 1) return 1;
    const double t0 = now_us();
    kill(pid, SIGCONT);
    double unlocked = 0;
    if (early) {
      while (!done.load()) {
      }
      unlocked = returned_us.load() - t0;
      unlocker.join();
      if (done == 2) {  // refused while stopped: unlocked now, as before
        ++w.failed;
        if (w.failed == 1) std::printf("an unlock asked for while the child was stopped: %s\n", err_name(early_result));
        CUcheckpointUnlockArgs ua{};
        cuCheckpointProcessUnlock(pid, &ua);
        unlocked = now_us() - t0;
      }
    } else {
      CUcheckpointUnlockArgs ua{};
      const CUresult ur = cuCheckpointProcessUnlock(pid, &ua);
      if (ur != CUDA_SUCCESS) std::printf("round %d: unlock %s\n", r, err_name(ur));
      unlocked = now_us() - t0;
    }
    char back = 0;
    if (read(kid.from, &back, 1) != 1) return 1;
    const double replied = now_us() - t0;
    w.unlocked.push_back(unlocked);
    w.read.push_back(g_marks->read_us - t0);
    w.synced.push_back(g_marks->synced_us - t0);
    w.replied.push_back(replied);
    w.unlocked_before_t0 += unlocked < 0;
    w.read_before_t0 += g_marks->read_us < t0;
    usleep(3000);
  }
  g_spin = false;
  for (auto& t : spinners) t.join();
  std::printf("us from the request's write and SIGCONT (t0): p10 / median / p90 of %d rounds each, in turn; lead %.0f us\n",
              rounds, lead_us);
  for (const Way& w : ways) {
    const auto q = [](const std::vector<double>& v) {
      const probe::Quantiles x = probe::quantiles(v);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%6.1f / %6.1f / %6.1f", x.p10, x.med, x.p90);
      return std::string(buf);
    };
    std::printf("  unlock %-6s  unlocked %s  read %s  synced %s  replied %s", w.name, q(w.unlocked).c_str(),
                q(w.read).c_str(), q(w.synced).c_str(), q(w.replied).c_str());
    std::printf("  (unlocked before t0: %d, read before t0: %d, refused while stopped: %d)\n", w.unlocked_before_t0,
                w.read_before_t0, w.failed);
  }
  kid.tell('q');
  waitpid(pid, nullptr, 0);
  return 0;
}
