#include "judge/grading/inputs_ahead.h"

#include <sched.h>

#include "harness/bytes.h"
#include "harness/timing.h"

namespace hpcjudge {

InputsAhead::InputsAhead(const Problem& p, const Case& c, const LaidCase& l, uint64_t seed, Options opt)
    : p_(p), c_(c), l_(l), seed_(seed), opt_(opt) {
  if (!opt_.ahead) return;
  for (size_t i = 0; i < l_.sig.buffers.size(); ++i)
    if (l_.sig.buffers[i].role == Role::In && !l_.sig.buffers[i].per_case) per_call_.push_back(i);
  // Pages of the staging copy are touched only where a per-call input lies (the rest is never faulted in).
  staging_ = std::make_unique_for_overwrite<std::byte[]>(l_.layout.total);
  maker_ = std::thread([this] { work(); });
}

InputsAhead::~InputsAhead() {
  if (!maker_.joinable()) return;
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

}  // namespace hpcjudge
