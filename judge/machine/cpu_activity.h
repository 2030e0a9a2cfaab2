// What the machine's CPUs did while a grade timed its calls, as evidence for a wide interval (Score::noise):
// the CPU time of every process that is not the judge's (nor a runner's, nor a rival's: the judge's descendants),
// and the time the hypervisor took the CPUs away from this machine (steal, in a virtual machine: another guest's
// work on the same host). The load average cannot say either: the judge's own spinning threads are in it
// (judge/timing/wake_latency.h), and steal is in nothing a process can see of itself.
#pragma once
#include "protocol/json.h"
#include <optional>
#include <string>
#include <sys/types.h>

namespace hpcjudge {

struct CpuSnapshot {
  double wall_s = 0;    // CLOCK_MONOTONIC
  double busy_s = 0;    // every CPU's time in processes (/proc/stat: user, nice, system; not irq, softirq, steal)
  double steal_s = 0;   // every CPU's steal time (/proc/stat)
  int cpus = 0;         // the CPUs /proc/stat counts (every online one: the judge may be allowed fewer)
  double family_s = 0;  // CPU time of `root` and every live descendant of it, and of those they reaped (/proc/<pid>/stat)
};

// /proc/stat and the process table now; nothing where /proc/stat cannot be read.
std::optional<CpuSnapshot> cpu_snapshot(pid_t root);

struct CpuActivity {
  double seconds = 0;     // the wall time between the two snapshots
  double others_s = 0;    // CPU time of processes outside the family (>= 0)
  double steal_s = 0;     // CPU time stolen by the hypervisor
  int cores = 0;          // the machine's online CPUs, whose time the figures share
  // "other processes used 3.2 CPU-seconds in 5.1 s (4% of 16 cores); the hypervisor took 0.9 s (1%)", with only
  // the parts that reach `min_share` of the cores' time ("" where none does).
  std::string describe(double min_share = 0.01) const;
  nlohmann::json to_json() const;
  static CpuActivity from_json(const nlohmann::json& j);  // what to_json wrote; zeros where a field is missing
};

// Between two snapshots of the same family (after - before).
CpuActivity cpu_activity(const CpuSnapshot& before, const CpuSnapshot& after);

}  // namespace hpcjudge
