#include "judge/isolation/scheduling.h"

#include <sys/resource.h>

#include <cerrno>

#include "judge/isolation/family.h"

namespace hpcjudge {

std::optional<Scheduling> Scheduling::of(pid_t tid) {
  Scheduling s;
  CPU_ZERO(&s.cpus);
  if (sched_getaffinity(tid, sizeof s.cpus, &s.cpus) != 0) return std::nullopt;
  s.policy = sched_getscheduler(tid);
  if (s.policy < 0) return std::nullopt;
  s.policy &= ~SCHED_RESET_ON_FORK;
  errno = 0;
  s.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  if (errno != 0) return std::nullopt;
  return s;
}

std::string cpu_list(const cpu_set_t& cpus) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &cpus)) continue;
    int e = c;
    while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &cpus)) ++e;
    if (!out.empty()) out += ",";
    out += std::to_string(c) + (e > c ? "-" + std::to_string(e) : "");
    c = e;
  }
  return out.empty() ? "none" : out;
}

namespace {

const char* policy_name(int policy) {
  switch (policy) {
    case SCHED_OTHER: return "SCHED_OTHER";
    case SCHED_BATCH: return "SCHED_BATCH";
    case SCHED_IDLE: return "SCHED_IDLE";
    case SCHED_FIFO: return "SCHED_FIFO";
    case SCHED_RR: return "SCHED_RR";
    default: return "another policy";
  }
}


}  // namespace

std::optional<std::string> slowed(const Scheduling& start, const Scheduling& now, const cpu_set_t& allowed) {
  cpu_set_t still, kept;  // the CPUs it may still have, and those of them it has
  CPU_AND(&still, &start.cpus, &allowed);
  CPU_AND(&kept, &still, &now.cpus);
  if (!CPU_EQUAL(&kept, &still))
    return std::string("may run on CPU") + (CPU_COUNT(&now.cpus) == 1 ? " " : "s ") + cpu_list(now.cpus) +
           " only (it started on " + cpu_list(start.cpus) + ")";
  if (now.nice > start.nice)
    return "runs at nice " + std::to_string(now.nice) + " (it started at " + std::to_string(start.nice) + ")";
  const bool lower = now.policy == SCHED_IDLE || now.policy == SCHED_BATCH;
  if (now.policy != start.policy && lower)
    return std::string("runs under ") + policy_name(now.policy) + " (it started under " + policy_name(start.policy) +
           ")";
  return std::nullopt;
}

std::optional<std::string> slowed_thread(pid_t pid, const Scheduling& start, bool every_thread) {
  const auto judge = Scheduling::of(0);
  if (!judge) return std::nullopt;
  for (const pid_t tid : every_thread ? threads_of(pid) : std::vector<pid_t>{pid})
    if (const auto now = Scheduling::of(tid))
      if (auto why = slowed(start, *now, judge->cpus)) return "thread " + std::to_string(tid) + " " + *why;
  return std::nullopt;
}

}  // namespace hpcjudge
