// The CPUs kept out of deep idle states while a GPU problem is timed. A timed
// GPU call is short (tens of microseconds to a few milliseconds) and crosses
// two processes: the runner wakes to the request, the judge to the reply, after
// milliseconds in which the judge checked and generated and the cores may have
// gone to deep idle states. The kernel's PM QoS interface (/dev/cpu_dma_latency)
// holds the CPUs' wake-up latency at 0 for as long as the file is open; it
// needs root, and without it the timing is as before and the report says so.
// Measured on the H200 only together with the judge's polling for the reply
// (docs/notebook/cpu-wake-latency.md): the two cut the cases' medians by 5-13%;
// the runner's 100 us to read a request stayed, so that wait is not an idle state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace hpcjudge {

class CpuWakeLatency {
 public:
  CpuWakeLatency();  // asks for 0 us; never fails (held() says whether it took)
  ~CpuWakeLatency();
  CpuWakeLatency(const CpuWakeLatency&) = delete;
  CpuWakeLatency& operator=(const CpuWakeLatency&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A thread per CPU (of the judge's affinity) that spins, at SCHED_IDLE, while a timed GPU call begins, so that
// no CPU is halted when the runner is resumed or the judge woken. On the H200's host (a virtual machine: a
// halted virtual CPU is woken through its host) the PM QoS request above changes nothing there; measured on
// (lab/wake_probe.cpp: a child stopped with SIGSTOP, the request written, SIGCONT, the child's
// read timed on the same clock), a child pinned to an idle CPU read 35-166 us (median) after the request,
// 14 us with such a thread spinning on its CPU; a child blocked in read() on any CPU, 32-48 us (151-227 us at
// the 90th percentile) against 7.5-9.2 us with one on every CPU. A normal thread woken on a CPU that only runs
// a SCHED_IDLE one preempts it at once, and the kernel's choice of CPU for a woken thread counts such a CPU
// as idle. But a normal thread that calls sched_yield() (as a CUDA runtime waiting for the device may) hands
// its CPU to the SCHED_IDLE one until the next tick: beside a spinner that never yielded, such a thread got
// 24.7 ms of CPU in 100 ms of yields (the 2-core VM), and on the H200 shared-memory-fix's fast reference,
// 6.3 ms a call, took 8.2-9.0 ms in the submission's runner. So a spinner yields after every 64 pauses (the
// yielding thread then got 97.7 ms, 91.8 ms with no spinner), and spins at most 2 ms after the call's request:
// enough for the runner's wake-up and a short call's whole reply, never the length of a long call. They spin
// from just before a timed call's request (Session::exchange, SessionOptions::keep_awake) and sleep on a
// futex otherwise.
class CpuSpinners {
 public:
  // One asleep per CPU the judge may run on; each spins for `window` at most after a hold() returns.
  explicit CpuSpinners(std::chrono::microseconds window = std::chrono::microseconds(2000));
  ~CpuSpinners();
  CpuSpinners(const CpuSpinners&) = delete;
  CpuSpinners& operator=(const CpuSpinners&) = delete;
  // Wakes them, and returns once each spins (or after kHoldWaitUs, where one is slow to get a CPU); from
  // then on they spin for the window at most.
  void hold();
  void release();
  size_t count() const { return threads_.size(); }
  size_t spinning() const { return spinning_.load(); }  // how many spin now
  double held_s() const { return static_cast<double>(held_ns_.load()) * 1e-9; }  // from hold() to release(), in all
  uint64_t rounds() const { return rounds_.load(); }  // holds seen, summed over the threads (late ones too)

 private:
  static constexpr int kHoldWaitUs = 2000;
  void spin(int cpu);
  const int64_t window_ns_;
  // Odd while held: each hold() and each release() step it by one, so a spinner whose window ran out waits
  // for the next odd value, never for one it has spun already.
  std::atomic<uint32_t> word_{0};
  std::atomic<bool> quit_{false};
  std::atomic<int64_t> until_ns_{0};  // the window's end, steady_clock
  std::atomic<size_t> spinning_{0};
  std::atomic<uint64_t> rounds_{0};
  std::atomic<int64_t> held_at_ns_{0}, held_ns_{0};
  std::vector<std::thread> threads_;
};

}  // namespace hpcjudge
