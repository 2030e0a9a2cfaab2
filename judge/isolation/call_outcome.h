// How one exchange with a runner ended (a call, a ping, a start): what the session measured and saw, before any
// verdict. The verdict is judge/verdicts/'s (outcome.h: failed_call).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "protocol/emulation_counts.h"

namespace hpcjudge {

struct CallOutcome {
  enum Status { Ok, Error, Crashed, TimedOut, OutOfMemory } status = Ok;
  double seconds = 0;           // the call on the judge's clock, the round trip subtracted
  double interval_s = 0;        // the judge's whole interval for the call: sent to reply, nothing subtracted
  // The judge's interval up to the reply alone (before a GPU call's fence, or the stop that ends a call whose
  // processes worked on past the reply), the round trip subtracted: what the runner's own figure is
  // cross-checked against (a pool of OpenMP threads going back to sleep moves the call's end to the stop:
  // 0.3 ms of a 0.3 ms call with 16 threads on the H200's host).
  double replied_s = 0;
  double reported_seconds = 0;  // what the runner said it took: only cross-checked
  // CallOptions::device_time on a device: the call's device time by events of the runner's context, as the
  // runner reports it (protocol::Reply::device_seconds): `judge bench`'s figure for the judge's own references.
  std::optional<double> device_seconds;
  // A runner marking its calls for `judge profile`: its CPU time over solve() (every thread) and solve()'s wall
  // time, and its threads' time waiting for a CPU, by its own clocks (protocol::Reply::cpu_seconds): the
  // profile's "CPUs busy" only.
  std::optional<double> cpu_seconds, body_seconds, ready_seconds;
  int64_t ret = 0;              // solve()'s return value, for problems whose solve returns one
  std::optional<size_t> device_peak_bytes;  // GPU: the most device memory the submission held
  std::optional<size_t> device_held_bytes;  // CPU emulation: what it left allocated after the call
  // CPU emulation with CallOptions::count_accesses: what the emulator counted (the runner's word: an estimate's
  // input only, never a verdict's).
  std::optional<protocol::EmulationCounts> emulation_counts;
  std::string message;
  // The runner ended before the submission's library was asked for (no code of the submission's had run in it):
  // the set-up's fault (a wrapper that could not start, a path it could not reach), the judge's verdict JE.
  bool judge_fault = false;
};

}  // namespace hpcjudge
