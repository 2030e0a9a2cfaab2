#include "judge/isolation/family.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace hpcjudge {

namespace {

std::mutex own_mutex;
std::set<pid_t>& own_children() {
  static std::set<pid_t> s;
  return s;
}

template <class F>
void each_entry(const std::string& dir, F f) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = readdir(d))
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9') f(std::atoi(e->d_name));
  closedir(d);
}

// The children of `pid`, from each of its threads' /proc children list.
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  const std::string base = "/proc/" + std::to_string(pid) + "/task/";
  each_entry(base, [&](int tid) {
    std::ifstream in(base + std::to_string(tid) + "/children");
    pid_t c;
    while (in >> c) out.push_back(c);
  });
  return out;
}

// Each thread of `pid` with its state letter (/proc/PID/task/TID/stat), until `f` returns true; none where it is
// gone.
template <class F>
void each_thread_state(pid_t pid, F f) {
  const std::string base = "/proc/" + std::to_string(pid) + "/task/";
  bool done = false;
  each_entry(base, [&](int tid) {
    if (done) return;
    std::ifstream in(base + std::to_string(tid) + "/stat");
    std::string line;
    std::getline(in, line);
    const size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size()) done = f(static_cast<pid_t>(tid), line[close + 2]);
  });
}

bool stopped_state(char s) { return s == 'T' || s == 't' || s == 'Z' || s == 'X'; }

// The first thread of `pid` not stopped: its id, state letter and the kernel function it waits in (wchan), or
// a zero id where every thread is stopped or the process is gone.
struct Unstopped {
  pid_t tid = 0;
  char state = '?';
  std::string wchan;
};
Unstopped first_unstopped(pid_t pid, bool with_wchan) {
  Unstopped u;
  each_thread_state(pid, [&](pid_t tid, char state) {
    if (stopped_state(state)) return false;
    u.tid = tid;
    u.state = state;
    return true;
  });
  if (u.tid && with_wchan) {
    std::ifstream wc("/proc/" + std::to_string(pid) + "/task/" + std::to_string(u.tid) + "/wchan");
    std::getline(wc, u.wchan);
  }
  return u;
}

bool is_stopped(pid_t pid) { return first_unstopped(pid, false).tid == 0; }

}  // namespace

void become_subreaper() { prctl(PR_SET_CHILD_SUBREAPER, 1); }

std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> tids;
  each_entry("/proc/" + std::to_string(pid) + "/task", [&](int tid) { tids.push_back(static_cast<pid_t>(tid)); });
  return tids;
}

void note_own_child(pid_t pid, bool alive) {
  std::lock_guard lock(own_mutex);
  if (alive) own_children().insert(pid);
  else own_children().erase(pid);
}

SpawningOwnChild::SpawningOwnChild() { own_mutex.lock(); }
SpawningOwnChild::~SpawningOwnChild() { own_mutex.unlock(); }
void SpawningOwnChild::note_spawned(pid_t pid) { own_children().insert(pid); }

std::vector<pid_t> ProcessFamily::members() const {
  std::vector<pid_t> roots = {root_};
  {
    // Orphans: the judge's children it did not start. Those that have exited are reaped here.
    std::lock_guard lock(own_mutex);
    for (pid_t c : children_of(getpid())) {
      if (c == root_ || own_children().count(c)) continue;
      if (waitpid(c, nullptr, WNOHANG) == c) continue;
      roots.push_back(c);
    }
  }
  std::vector<pid_t> all;
  std::set<pid_t> seen;
  while (!roots.empty()) {
    const pid_t p = roots.back();
    roots.pop_back();
    if (!seen.insert(p).second) continue;
    all.push_back(p);
    for (pid_t c : children_of(p)) roots.push_back(c);
  }
  return all;
}

bool ProcessFamily::stop(std::chrono::microseconds limit, std::string* why, std::chrono::microseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  const auto grace_ends = deadline + grace;
  ::kill(-root_, SIGSTOP);  // the runner's process group at once: the usual family
  signalled_.clear();
  for (int pass = 0;; ++pass) {
    const std::vector<pid_t> now = members();
    bool all = true;
    for (pid_t p : now) {
      if (signalled_.insert(p).second) ::kill(p, SIGSTOP);
    }
    pid_t running = 0;
    for (pid_t p : now)
      if (!is_stopped(p)) {
        all = false;
        running = p;
        break;
      }
    if (all) {
      std::vector<pid_t> again = members();
      if (again.size() == now.size()) {
        known_ = std::move(again);
        return true;
      }
    }
    if (const auto t = std::chrono::steady_clock::now(); t > deadline) {
      if (running == 0) {  // every member stopped at each look, but not the same members twice
        if (why) *why = "its members kept changing";
        return false;
      }
      const Unstopped u = first_unstopped(running, true);
      if (u.state == 'D' && t < grace_ends) {  // in the kernel: it stops on its way out
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        continue;
      }
      if (why) {
        *why = "process " + std::to_string(running) + " did not stop";
        if (u.tid)
          *why += " (its thread " + std::to_string(u.tid) + " in state " + std::string(1, u.state) +
                  (u.wchan.empty() || u.wchan == "0" ? std::string() : ", waiting in " + u.wchan) + ")";
      }
      return false;
    }
    if (pass > 2) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

uint64_t ProcessFamily::cpu_ns() const {
  uint64_t ns = 0;
  for (pid_t p : known_) {
    clockid_t clock;
    timespec t{};
    if (clock_getcpuclockid(p, &clock) == 0 && clock_gettime(clock, &t) == 0)
      ns += static_cast<uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(t.tv_nsec);
  }
  return ns;
}

void ProcessFamily::resume() {
  for (pid_t p : signalled_) ::kill(p, SIGCONT);
  ::kill(-root_, SIGCONT);
  signalled_.clear();
}

void ProcessFamily::kill() {
  // The group and the members already known at once, before the (slow, with a
  // fork bomb) look for the rest.
  ::kill(-root_, SIGKILL);
  for (pid_t p : known_) ::kill(p, SIGKILL);
  for (pid_t p : signalled_) ::kill(p, SIGKILL);
  for (int round = 0; round < 100; ++round) {
    const std::vector<pid_t> now = members();
    ::kill(-root_, SIGKILL);
    for (pid_t p : now) ::kill(p, SIGKILL);
    // The orphans are the judge's children now: reap them (the root is its Child's to reap).
    bool left = false;
    for (pid_t p : now) {
      if (p == root_) continue;
      if (waitpid(p, nullptr, WNOHANG) == p) continue;
      if (::kill(p, 0) == 0) left = true;
    }
    if (!left) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  signalled_.clear();
}

}  // namespace hpcjudge
