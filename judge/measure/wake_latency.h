// The CPUs kept out of deep idle states while a GPU problem is timed. A timed
// GPU call is short (tens of microseconds to a few milliseconds) and crosses
// two processes: the runner wakes to the request, the judge to the reply, after
// milliseconds in which the judge checked and generated and the cores may have
// gone to deep idle states. The kernel's PM QoS interface (/dev/cpu_dma_latency)
// holds the CPUs' wake-up latency at 0 for as long as the file is open; it
// needs root, and without it the timing is as before and the report says so.
// Measured on the H200 only together with the judge's polling for the reply
// (docs/design.md, "What it costs"): the two cut the cases' medians by 5-13%;
// the runner's 100 us to read a request stayed, so that wait is not an idle state.
#pragma once

namespace hpcjudge {

// HPCJUDGE_NO_WAKE_AIDS=1: neither this nor the judge's spinning wait for a timed GPU reply
// (judge/isolation/session.cpp), to measure what they change.
bool wake_aids_off();

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

}  // namespace hpcjudge
