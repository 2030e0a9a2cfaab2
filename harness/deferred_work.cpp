#include "deferred_work.h"

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

namespace hpcjudge {

namespace {

// CPU time a thread of this process has used, in ns.
uint64_t cpu_ns(pid_t tid) {
  std::ifstream sched("/proc/self/task/" + std::to_string(tid) + "/schedstat");
  uint64_t ns = 0;
  sched >> ns;
  return ns;
}

// Whether thread `tid` of this process is running or runnable (state R).
bool runnable(pid_t tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t close = line.rfind(')');  // the state follows the command name in parentheses
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'R';
}

// The other threads of this process that are running or runnable now, with their CPU time.
std::map<pid_t, uint64_t> running_threads() {
  std::map<pid_t, uint64_t> running;
  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  DIR* d = opendir("/proc/self/task");
  if (!d) return running;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const pid_t tid = static_cast<pid_t>(std::atoi(e->d_name));
    if (tid == self) continue;
    if (runnable(tid)) running[tid] = cpu_ns(tid);
  }
  closedir(d);
  return running;
}

}  // namespace

std::string deferred_host_work() {
  const std::map<pid_t, uint64_t> running = running_threads();
  if (running.empty()) return "";
  // Watch them for 30 ms: a sleeping helper gains little; real work gains most
  // of it, or on a machine whose cores are all busy, stays runnable the whole
  // time, waiting for a core (state R at every look, some CPU gained).
  constexpr auto kWindow = std::chrono::milliseconds(30), kLook = std::chrono::milliseconds(2);
  constexpr uint64_t kBusyNs = 10'000'000, kQueuedNs = 1'000'000;
  std::map<pid_t, int> seen_runnable;
  int looks = 0;
  for (auto waited = std::chrono::milliseconds(0); waited < kWindow; waited += kLook) {
    std::this_thread::sleep_for(kLook);
    ++looks;
    for (const auto& [tid, ns] : running)
      if (runnable(tid)) ++seen_runnable[tid];
  }
  for (const auto& [tid, ns] : running) {
    const uint64_t later = cpu_ns(tid);
    const uint64_t used = later > ns ? later - ns : 0;
    if (used > kBusyNs || (used > kQueuedNs && seen_runnable[tid] * 10 >= looks * 9)) {
      char why[256];
      std::snprintf(why, sizeof why,
                    "a thread was still working after solve() returned (thread %d used %.0f ms of CPU in the %lld ms "
                    "after): all work must be done before solve() returns",
                    static_cast<int>(tid), static_cast<double>(used) / 1e6,
                    static_cast<long long>(kWindow.count()));
      return why;
    }
  }
  return "";
}

}  // namespace hpcjudge
