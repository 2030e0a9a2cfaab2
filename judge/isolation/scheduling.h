// What one process may change about another's threads without any privilege, where both run as the same user:
// the CPUs a thread may run on (sched_setaffinity), its nice value (setpriority: raised, never lowered back) and
// its scheduling policy (sched_setscheduler: SCHED_IDLE, SCHED_BATCH). Graded as an ordinary user without the
// sandbox, the submission's runner and the judge's own runners beside it (judge/timing/rivals.h) are such
// processes, as is the judge: a submission that pins the fast reference's threads to one CPU during its own call
// makes every later call of the fast reference slower, and its own ratio smaller (softmax-cpu on the 2-core VM:
// 50.9 against its honest twin's 46.8; on 16 cores, 16 threads on one CPU). As root, each runner has a user of
// its own and the sandbox a PID namespace of its own, where none of this is possible, so the check finds nothing.
//
// The judge cannot undo a raised nice value or SCHED_IDLE without privilege, so it does not try: it looks
// before each of its own runners' calls, and a change is the submission's doing (its code is the only code that
// ran meanwhile as the judge's user), a forgery of the timing (docs/design.md, "isolation").
#pragma once
#include <sched.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace hpcjudge {

struct Scheduling {
  cpu_set_t cpus;
  int policy = SCHED_OTHER;
  int nice = 0;
  // Thread `tid`'s (any thread of any process, as the judge may look at every one; 0: the calling thread), or
  // none where it has ended.
  static std::optional<Scheduling> of(pid_t tid);
};

// "0-3,8": a set of CPUs as the kernel lists them.
std::string cpu_list(const cpu_set_t& cpus);

// How `now` runs under less than `start` allowed, or none: fewer CPUs than `start`'s that `allowed` still has (the
// judge's own now, so that a machine that takes CPUs from every process is no one's forgery), a higher nice value,
// SCHED_IDLE or SCHED_BATCH where it started otherwise.
std::optional<std::string> slowed(const Scheduling& start, const Scheduling& now, const cpu_set_t& allowed);

// The first thread of process `pid` (every thread, or its main thread only) slowed from how `start` ran, the judge's
// CPUs now the ones it may still have: "thread 1234 may run on CPU 0 only (it started on 0-1)".
std::optional<std::string> slowed_thread(pid_t pid, const Scheduling& start, bool every_thread);

}  // namespace hpcjudge
