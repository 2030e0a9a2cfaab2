// A 32-bit atomic word as a futex: wait while it holds a value, wake every waiter. The judge's threads that
// sleep until a word changes (the input maker's pause, judge/grading/inputs_ahead.cpp; the CPU spinners,
// judge/timing/wake_latency.cpp) use these; private futexes, within the judge's process.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>

namespace hpcjudge {

// Sleeps while `word` holds `value` (returns at once where it does not, or on a signal).
inline void futex_wait(std::atomic<uint32_t>& word, uint32_t value) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
}

// Wakes every thread asleep on `word`.
inline void futex_wake_all(std::atomic<uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace hpcjudge
