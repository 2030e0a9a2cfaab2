#include "judge/grading/inputs_ahead.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "sdk/bytes.h"
#include "sdk/timing.h"
#include "judge/isolation/family.h"
#include "judge/isolation/futex.h"

namespace hpcjudge {

namespace {

// The pause: a futex word, odd while paused, that each pause() and each resume() steps by one, and a count of
// the handler's entries while paused. A thread in the handler sleeps while the word is the one it found there,
// so a resume() followed at once by the next pause() still lets it out, and the next pause's signal (pending
// while it was in the handler) brings it back and counts it. (With a word that only held 1 while paused, a thread
// woken by a resume() that had no CPU yet when the next pause() began found 1 again and slept on uncounted: on the
// H200 every back-to-back pause, a rival's call right after the submission's, waited out its 50 ms bound.) A
// signal that arrives once its pause is over is not counted and holds nothing. Process-wide, as signal handlers
// are; the judge grades one case at a time, so one maker at most is paused at once.
std::atomic<uint32_t> g_state{0};
std::atomic<uint64_t> g_arrived{0};

int pause_signal() { return SIGRTMIN + 7; }

void on_pause_signal(int) {
  const int saved = errno;
  const uint32_t found = g_state.load();
  if (found % 2 == 1) {
    g_arrived.fetch_add(1);
    while (g_state.load() == found)
      futex_wait(g_state, found);  // a system call: safe in a signal handler
  }
  errno = saved;
}

void install_pause_handler() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = on_pause_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(pause_signal(), &sa, nullptr) == 0;
  }();
  (void)installed;
}

// The threads of this process named `name` (/proc/self/task/*/comm).
std::vector<pid_t> threads_named(const char* name) {
  std::vector<pid_t> found;
  for (const pid_t tid : threads_of(getpid())) {
    char path[64], comm[32] = {};
    std::snprintf(path, sizeof path, "/proc/self/task/%d/comm", static_cast<int>(tid));
    if (FILE* f = std::fopen(path, "r")) {
      if (std::fgets(comm, sizeof comm, f)) {
        comm[std::strcspn(comm, "\n")] = '\0';
        if (std::strcmp(comm, name) == 0) found.push_back(tid);
      }
      std::fclose(f);
    }
  }
  return found;
}

}  // namespace

InputsAhead::InputsAhead(const Problem& p, const Case& c, const LaidCase& l, uint64_t seed, Options opt)
    : p_(p), c_(c), l_(l), seed_(seed), opt_(opt) {
  if (!opt_.ahead) return;
  install_pause_handler();
  for (size_t i = 0; i < l_.sig.buffers.size(); ++i)
    if (l_.sig.buffers[i].call_input()) per_call_.push_back(i);
  // Pages of the staging copy are touched only where a per-call input lies (the rest is never faulted in).
  staging_ = std::make_unique_for_overwrite<std::byte[]>(l_.layout.total);
  maker_ = std::thread([this] { work(); });
}

InputsAhead::~InputsAhead() {
  if (!maker_.joinable()) return;
  resume();
  {
    std::lock_guard lock(m_);
    quit_ = true;
  }
  cv_.notify_all();
  maker_.join();
}

void InputsAhead::make(const Buffers& into, uint32_t set, Set& out) const {
  Stopwatch step;
  p_.generate(c_, seed_, set, into);
  out.generate_s = step.lap();
  if (!opt_.spot) out.expected = p_.reference(c_, into);
  out.reference_s = step.lap();
}

void InputsAhead::work() {
  // SCHED_IDLE (allowed to any user: it only lowers the thread's claim), inherited by the OpenMP team this
  // thread starts for the generator and the reference: they run only on CPUs nothing else wants.
  const sched_param idle{.sched_priority = 0};
  sched_setscheduler(0, SCHED_IDLE, &idle);
  pthread_setname_np(pthread_self(), kThreadName);  // inherited too: how pause() finds the team
  // The staging copy's view: the per-call inputs there, every other buffer the image's (the per-case inputs
  // the generator and the reference read; nothing here writes them).
  std::vector<BufferView> views = l_.views;
  for (size_t i : per_call_) views[i].data = staging_.get() + l_.layout.offset[i];
  const Buffers staged(views);
  std::unique_lock lock(m_);
  for (;;) {
    cv_.wait(lock, [&] { return quit_ || asked_; });
    if (quit_) return;
    const uint32_t set = *asked_;
    lock.unlock();
    Set out;
    std::exception_ptr failed;
    try {
      make(staged, set, out);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    asked_.reset();
    made_ = std::move(out);
    made_set_ = set;
    failed_ = failed;
    cv_.notify_all();
  }
}

InputsAhead::Set InputsAhead::take(uint32_t set) {
  Stopwatch waiting;
  std::optional<Set> got;
  if (opt_.ahead) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return !asked_; });
    if (made_ && made_set_ == set) {
      if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
      got = std::move(made_);
    }
    made_.reset();
  }
  if (got) {  // made ahead: into the image, where the session loads it from and the check compares with
    for (size_t i : per_call_)
      parallel_copy(l_.views[i].data, staging_.get() + l_.layout.offset[i], l_.sig.buffers[i].bytes());
    got->waited_s = waiting.lap();
  } else {
    got.emplace();
    make(l_.buffers(), set, *got);
  }
  if (opt_.ahead) {
    {
      std::lock_guard lock(m_);
      asked_ = set + 1;
    }
    cv_.notify_all();
  }
  return std::move(*got);
}

void InputsAhead::pause() {
  if (!maker_.joinable() || paused_) return;
  paused_ = true;
  arrived_before_ = g_arrived.load();
  g_state.fetch_add(1);  // odd: paused
  uint64_t sent = 0;
  for (pid_t tid : threads_named(kThreadName))
    if (syscall(SYS_tgkill, getpid(), tid, pause_signal()) == 0) ++sent;
  signalled_ = sent;
  // Until each signalled thread is in the handler: one in the kernel (a page fault) takes it on its way out.
  // Asleep meanwhile, not yielding: a woken SCHED_IDLE thread whose CPU this thread held waited for the load
  // balancer (25 ms a pause on the H200, a timed rival call 2 -> 55 ms in trace run).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  const timespec nap{.tv_sec = 0, .tv_nsec = 20000};
  while (held() < sent && std::chrono::steady_clock::now() < give_up) nanosleep(&nap, nullptr);
}

uint64_t InputsAhead::held() const { return paused_ ? g_arrived.load() - arrived_before_ : 0; }

void InputsAhead::resume() {
  if (!paused_) return;
  paused_ = false;
  g_state.fetch_add(1);  // even: running
  futex_wake_all(g_state);
}

}  // namespace hpcjudge
