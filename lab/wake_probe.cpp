// How long a process takes to read a request once the judge's steps have woken it (docs/design.md, "What it
// costs"): a child that waits in read() on a pipe, stopped with SIGSTOP between rounds or not, and the parent
// (pinned to CPU 0) writing a byte, continuing it and spinning for the reply. Per mode, 200 rounds 3 ms apart:
// the child's read after the write and the parent's reply after the child's write, in us, both on
// CLOCK_MONOTONIC. The modes add SCHED_IDLE threads that spin while a round is in flight, on the child's CPU
// or on every CPU but the parent's, as the judge's CpuSpinners do.
//   g++ -O2 -pthread -o wake_probe lab/wake_probe.cpp && ./wake_probe   (lab/lab.sh wake-probe)
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

namespace {

double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  sched_setaffinity(0, sizeof s, &s);
}

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

struct Shared {
  double read_at, reply_at;
};
std::atomic<bool> g_spin{false}, g_quit{false};

void spinner(int cpu) {
  pin(cpu);
  const sched_param p{};
  sched_setscheduler(0, SCHED_IDLE, &p);
  while (!g_quit.load(std::memory_order_relaxed))
    if (g_spin.load(std::memory_order_relaxed))
      relax();
    else
      usleep(200);
}

struct Mode {
  const char* name;
  bool stopped, pinned, spin_child_cpu, spin_all;
};

}  // namespace

int main() {
  const int cpus = static_cast<int>(std::thread::hardware_concurrency()), rounds = 200, warm = 5;
  const int child_cpu = cpus > 1 ? cpus / 2 : 0;
  const Mode modes[] = {{"blocked", false, false, false, false},
                        {"stopped", true, false, false, false},
                        {"stopped, pinned", true, true, false, false},
                        {"stopped, pinned, spinner there", true, true, true, false},
                        {"stopped, spinners on all", true, false, false, true},
                        {"blocked, spinners on all", false, false, false, true}};
  std::printf("%d CPUs; the child pinned to CPU %d where a mode says so\n", cpus, child_cpu);
  for (const Mode& m : modes) {
    auto* sh = static_cast<Shared*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    int req[2], rep[2];
    if (sh == MAP_FAILED || pipe(req) != 0 || pipe(rep) != 0) return 1;
    const pid_t c = fork();
    if (c == 0) {
      if (m.pinned) pin(child_cpu);
      char b;
      while (read(req[0], &b, 1) == 1) {
        sh->read_at = now_us();
        sh->reply_at = now_us();
        if (write(rep[1], &b, 1) != 1) break;
      }
      _exit(0);
    }
    pin(0);
    fcntl(rep[0], F_SETFL, O_NONBLOCK);
    g_quit = false;
    g_spin = false;
    std::vector<std::thread> spinners;
    if (m.spin_child_cpu) spinners.emplace_back(spinner, child_cpu);
    if (m.spin_all)
      for (int k = 1; k < cpus; ++k) spinners.emplace_back(spinner, k);
    std::vector<double> reads, replies;
    for (int i = 0; i < rounds + warm; ++i) {
      int st;
      if (m.stopped) {
        kill(c, SIGSTOP);
        waitpid(c, &st, WUNTRACED);
      }
      usleep(3000);
      if (!spinners.empty()) {
        g_spin = true;
        usleep(300);
      }
      const double t0 = now_us();
      char b = 'x';
      if (write(req[1], &b, 1) != 1) return 1;
      if (m.stopped) kill(c, SIGCONT);
      while (read(rep[0], &b, 1) != 1) relax();
      const double t1 = now_us();
      g_spin = false;
      if (m.stopped) waitpid(c, &st, WCONTINUED);
      if (i >= warm) {
        reads.push_back(sh->read_at - t0);
        replies.push_back(t1 - sh->reply_at);
      }
    }
    g_quit = true;
    for (std::thread& t : spinners) t.join();
    close(req[1]);
    kill(c, SIGKILL);
    waitpid(c, nullptr, 0);
    std::sort(reads.begin(), reads.end());
    std::sort(replies.begin(), replies.end());
    const auto q = [](const std::vector<double>& v, double f) { return v[static_cast<size_t>(f * (v.size() - 1))]; };
    std::printf("%-32s read p10 %6.1f p50 %6.1f p90 %6.1f us | reply p50 %6.1f p90 %6.1f us\n", m.name,
                q(reads, .1), q(reads, .5), q(reads, .9), q(replies, .5), q(replies, .9));
    std::fflush(stdout);
  }
}
