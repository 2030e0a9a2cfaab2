#include "judge/timing/wake_latency.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>

#include "judge/isolation/futex.h"

namespace hpcjudge {

CpuWakeLatency::CpuWakeLatency() {
  fd_ = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) return;
  const int32_t zero = 0;  // microseconds: the request lasts while the file stays open
  if (write(fd_, &zero, sizeof zero) != static_cast<ssize_t>(sizeof zero)) {
    close(fd_);
    fd_ = -1;
  }
}

CpuWakeLatency::~CpuWakeLatency() {
  if (fd_ >= 0) close(fd_);
}

namespace {

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

CpuSpinners::CpuSpinners(std::chrono::microseconds window)
    : window_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(window).count()) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mine)) threads_.emplace_back([this, cpu] { spin(cpu); });
}

CpuSpinners::~CpuSpinners() {
  quit_.store(true);
  word_.fetch_add(2);  // a new value, for any thread asleep on the word
  futex_wake_all(word_);
  for (std::thread& t : threads_) t.join();
}

void CpuSpinners::spin(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  sched_setaffinity(0, sizeof one, &one);
  const sched_param idle{};
  sched_setscheduler(0, SCHED_IDLE, &idle);  // allowed to any user: it only lowers the thread's claim
  pthread_setname_np(pthread_self(), "hpcjudge-awake");
  uint32_t spun = 0;  // the last hold's word this thread spun for
  for (;;) {
    const uint32_t w = word_.load();
    if (quit_.load()) return;
    if (w % 2 == 0 || w == spun) {
      futex_wait(word_, w);
      continue;
    }
    spinning_.fetch_add(1);
    rounds_.fetch_add(1);
    while (word_.load(std::memory_order_relaxed) == w && steady_ns() < until_ns_.load(std::memory_order_relaxed)) {
      for (int k = 0; k < 64; ++k) cpu_relax();
      sched_yield();  // a normal thread that yielded this CPU gets it back at once
    }
    spinning_.fetch_sub(1);
    spun = w;
  }
}

void CpuSpinners::hold() {
  if (threads_.empty()) return;
  if (word_.load() % 2 == 1) release();
  held_at_ns_.store(steady_ns());
  until_ns_.store(INT64_MAX);  // until all spin; the window counts from then
  word_.fetch_add(1);          // odd: held
  futex_wake_all(word_);
  // Asleep meanwhile, not spinning: this thread's own CPU has a spinner to run too.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::microseconds(kHoldWaitUs);
  const timespec nap{0, 20'000};
  while (spinning_.load() < threads_.size() && std::chrono::steady_clock::now() < give_up) nanosleep(&nap, nullptr);
  until_ns_.store(steady_ns() + window_ns_);
}

void CpuSpinners::release() {
  if (threads_.empty() || word_.load() % 2 == 0) return;
  word_.fetch_add(1);  // even: asleep
  held_ns_.fetch_add(steady_ns() - held_at_ns_.load());
}

}  // namespace hpcjudge
