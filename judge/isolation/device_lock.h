// A runner's device work kept inside its calls (docs/design.md, "Device work between calls"). Stopping a
// runner's processes stops none of their GPU work: a kernel launched after solve() returned runs on while they
// are stopped, and work queued behind a stream wait starts when the judge's upload writes the awaited word.
// So before the judge writes a call's inputs into a runner's buffers, each CUDA process of the runner's family
// is locked with the driver's process lock (cuCheckpointProcessLock), which waits for the work that process has
// submitted and then blocks its CUDA API calls; the family is stopped after. The call's request unlocks them
// once they run again, inside the call's interval (as the pings' requests do, so it is subtracted).
//
// Measured on the H200 (driver 580.159, lab/busy_probe.cu): lock 0.2-0.4 ms on an idle process,
// unlock 0.07-0.7 ms; a lock on a process with a 30 ms kernel in flight returned after 30.2-30.5 ms; on one with a
// resident grid or work queued behind a stream wait it gave CUDA_ERROR_NOT_READY at its timeout and left the
// process running. Both need the process running: an unlock of a stopped process had not returned after 10 s,
// and a lock of one ignored its timeout (CUDA_ERROR_OPERATING_SYSTEM once the process was killed, after 3 s).
#pragma once
#include <sys/types.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace hpcjudge {

class DeviceLock {
 public:
  // Whether this machine's CUDA driver has the process lock: "" where it has, else why not.
  static std::string unavailable();
  // True where `pid` holds an NVIDIA device file open (/dev/nvidia*): a process that may have device work; true
  // also where the judge may not look (then the lock says).
  static bool uses_gpu(pid_t pid);

  enum class Result { Locked, Busy, Failed };
  // Locks each process among `pids` that uses the GPU and is not locked yet, each waited for up to `limit`; the
  // processes must be running. Busy where one's submitted work did not end within `limit` (`why` names it,
  // that process left unlocked); Failed where the driver refused (why).
  Result lock(const std::vector<pid_t>& pids, std::chrono::milliseconds limit, std::string* why);
  // Unlocks every process lock() locked; they must be running. False (why) where one would not unlock (one
  // that has ended is not an error).
  bool unlock(std::string* why);
  bool held() const { return !locked_.empty(); }
  // The processes lock() has looked at since the last unlock(), whether it locked them or not.
  const std::set<pid_t>& looked_at() const { return looked_at_; }

 private:
  std::vector<pid_t> locked_;
  std::set<pid_t> looked_at_;
};

}  // namespace hpcjudge
