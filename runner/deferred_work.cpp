#include "runner/deferred_work.h"

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

// Field `field` (3 = state, 14 = utime, 15 = stime) of /proc/self/task/<tid>/stat, as text.
std::string stat_field(pid_t tid, int field) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t close = line.rfind(')');  // the fields from 3 on follow the command name in parentheses
  if (close == std::string::npos) return "";
  std::istringstream rest(line.substr(close + 1));
  std::string f;
  for (int i = 3; i <= field && rest >> f; ++i) {
  }
  return f;
}

// Whether thread `tid` of this process is running or runnable (state R).
bool runnable(pid_t tid) { return stat_field(tid, 3) == "R"; }

// What a thread is, for the message: its name and where it is now ("omp-worker, running" or "... in futex_wait").
std::string described(pid_t tid) {
  std::ifstream comm("/proc/self/task/" + std::to_string(tid) + "/comm");
  std::string name, wchan;
  std::getline(comm, name);
  std::ifstream wc("/proc/self/task/" + std::to_string(tid) + "/wchan");
  std::getline(wc, wchan);
  const std::string state = stat_field(tid, 3);
  std::string d = "thread " + std::to_string(tid) + " '" + name + "'";
  if (state == "R") return d + ", still running";
  return d + (wchan.empty() || wchan == "0" ? ", now state " + state : ", now waiting in " + wchan);
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

// Watches `threads` (with their CPU time when first seen) for 30 ms. A sleeping helper gains little; real work
// gains most of it, or on a machine whose cores are all busy, stays runnable the whole time, waiting for a core
// (state R at every look, some CPU gained). The threads still working, with the CPU each used; the window's
// real length in `window_ms` (longer than 30 ms where the watcher itself waited for a core).
std::map<pid_t, uint64_t> still_working(const std::map<pid_t, uint64_t>& threads, double& window_ms) {
  constexpr auto kWindow = std::chrono::milliseconds(30), kLook = std::chrono::milliseconds(2);
  constexpr uint64_t kBusyNs = 10'000'000, kQueuedNs = 1'000'000;
  const auto began = std::chrono::steady_clock::now();
  std::map<pid_t, int> seen_runnable;
  int looks = 0;
  for (auto waited = std::chrono::milliseconds(0); waited < kWindow; waited += kLook) {
    std::this_thread::sleep_for(kLook);
    ++looks;
    for (const auto& [tid, ns] : threads)
      if (runnable(tid)) ++seen_runnable[tid];
  }
  std::map<pid_t, uint64_t> working;
  for (const auto& [tid, ns] : threads) {
    const uint64_t later = cpu_ns(tid);
    const uint64_t used = later > ns ? later - ns : 0;
    if (used > kBusyNs || (used > kQueuedNs && seen_runnable[tid] * 10 >= looks * 9)) working[tid] = used;
  }
  window_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  return working;
}

}  // namespace

std::string deferred_host_work() {
  std::map<pid_t, uint64_t> running = running_threads();
  if (running.empty()) return "";
  // The family is stopped between calls: the judge's SIGCONT wakes every sleeping thread of a pool (OpenMP's,
  // asleep in a futex) for the moment it takes to go back to sleep, and this request comes right after it. Those
  // found running at one look in two were watched for nothing (35 ms of the 2-core VM's checks of softmax-cpu's
  // n1M runs, against 3.5 ms). Watched: those still running 1 ms later.
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (auto it = running.begin(); it != running.end();) it = runnable(it->first) ? std::next(it) : running.erase(it);
  if (running.empty()) return "";
  double window_ms = 0;
  const std::map<pid_t, uint64_t> working = still_working(running, window_ms);
  if (working.empty()) return "";
  // Work must go on through a second look: a thread that the kernel kept busy for a moment (a page fault in
  // memory reclaim, on a machine short of it) and then sleeps is no work of the submission's. One deferred past
  // solve() gains nothing either way (the process is stopped from the reply to the next call, and the judge's
  // clock runs on while it was working), but its author must be told.
  std::map<pid_t, uint64_t> again;
  for (const auto& [tid, used] : working) again[tid] = cpu_ns(tid);
  double second_ms = 0;
  const std::map<pid_t, uint64_t> still = still_working(again, second_ms);
  for (const auto& [tid, used] : still) {
    char why[400];
    std::snprintf(why, sizeof why,
                  "a thread was still working after solve() returned (%s, used %.0f ms of CPU in the %.0f ms "
                  "after, and %.0f ms in the %.0f ms after that): all work must be done before solve() returns",
                  described(tid).c_str(), static_cast<double>(working.at(tid)) / 1e6, window_ms,
                  static_cast<double>(used) / 1e6, second_ms);
    return why;
  }
  return "";
}

}  // namespace hpcjudge
