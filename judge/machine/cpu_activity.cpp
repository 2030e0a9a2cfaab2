#include "judge/machine/cpu_activity.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "judge/isolation/process.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace {

double ticks_per_second() {
  static const double hz = [] {
    const long t = sysconf(_SC_CLK_TCK);
    return t > 0 ? static_cast<double>(t) : 100.0;
  }();
  return hz;
}

double monotonic_s() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

std::optional<CpuSnapshot> cpu_snapshot(pid_t root) {
  CpuSnapshot s;
  s.wall_s = monotonic_s();
  {
    std::ifstream in("/proc/stat");
    std::string cpu;
    // user nice system idle iowait irq softirq steal (guest time is inside user and nice already)
    unsigned long long v[8] = {};
    if (!(in >> cpu) || cpu != "cpu") return std::nullopt;
    for (auto& x : v)
      if (!(in >> x)) x = 0;
    const double hz = ticks_per_second();
    s.busy_s = static_cast<double>(v[0] + v[1] + v[2]) / hz;
    s.steal_s = static_cast<double>(v[7]) / hz;
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("cpu", 0) == 0 && line.size() > 3 && line[3] >= '0' && line[3] <= '9') ++s.cpus;
  }
  // The family: root and every process whose chain of parents reaches it (the judge is its orphans' reaper, so
  // a runner's descendants stay in it).
  struct Proc {
    pid_t ppid = 0;
    double cpu_s = 0;
  };
  std::map<pid_t, Proc> procs;
  each_process([&](int pid, unsigned, const std::string& stat) {
    // After the command name in parentheses: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime. The waited-for children's times (cutime, cstime) count too: a runner
    // that ends and is reaped between the snapshots moves its time into its parent's, not out of the family.
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) return;
    std::istringstream in(stat.substr(close + 1));
    std::string state;
    long long ppid = 0, skip = 0;
    unsigned long long utime = 0, stime = 0, cutime = 0, cstime = 0;
    in >> state >> ppid;
    for (int k = 0; k < 9; ++k) in >> skip;  // pgrp to cmajflt
    if (!(in >> utime >> stime >> cutime >> cstime)) return;
    procs[static_cast<pid_t>(pid)] = {static_cast<pid_t>(ppid),
                                      static_cast<double>(utime + stime + cutime + cstime) / ticks_per_second()};
  });
  for (const auto& [pid, p] : procs) {
    pid_t at = pid;
    for (int depth = 0; depth < 64 && at > 1 && at != root; ++depth) {
      const auto it = procs.find(at);
      at = it == procs.end() ? 0 : it->second.ppid;
    }
    if (at == root) s.family_s += p.cpu_s;
  }
  return s;
}

CpuActivity cpu_activity(const CpuSnapshot& before, const CpuSnapshot& after) {
  CpuActivity a;
  a.cores = after.cpus;
  a.seconds = std::max(0.0, after.wall_s - before.wall_s);
  // A child of the family that ended unreaped by it, or one that left it, takes its time out of the family's sum:
  // never below zero.
  a.others_s = std::max(0.0, (after.busy_s - before.busy_s) - (after.family_s - before.family_s));
  a.steal_s = std::max(0.0, after.steal_s - before.steal_s);
  return a;
}

std::string CpuActivity::describe(double min_share) const {
  const double capacity = seconds * std::max(cores, 1);
  if (capacity <= 0) return "";
  std::string out;
  char buf[200];
  if (others_s >= min_share * capacity) {
    std::snprintf(buf, sizeof buf, "other processes used %.2f CPU-seconds in the %.2f s of timing (%.0f%% of %d cores)",
                  others_s, seconds, 100 * others_s / capacity, cores);
    out = buf;
  }
  if (steal_s >= min_share * capacity) {
    std::snprintf(buf, sizeof buf, "%sthe hypervisor took %.2f CPU-seconds from this machine's cores (steal, %.0f%%)",
                  out.empty() ? "" : "; ", steal_s, 100 * steal_s / capacity);
    out += buf;
  }
  return out;
}

nlohmann::json CpuActivity::to_json() const {
  return {{"seconds", seconds}, {"others_cpu_s", others_s}, {"steal_s", steal_s}, {"cores", cores}};
}

CpuActivity CpuActivity::from_json(const nlohmann::json& j) {
  CpuActivity a;
  a.seconds = tolerant::num(j, "seconds").value_or(0);
  a.others_s = tolerant::num(j, "others_cpu_s").value_or(0);
  a.steal_s = tolerant::num(j, "steal_s").value_or(0);
  a.cores = static_cast<int>(tolerant::num(j, "cores").value_or(0));
  return a;
}

}  // namespace hpcjudge
