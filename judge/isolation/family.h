// Every process a runner started, and stopping them all: the submission runs
// only while one of its calls is in flight (docs/design.md, timing).
//
// The family of a runner is the runner's process and every descendant of it,
// plus the judge's children it did not start itself: the judge is a child
// subreaper (become_subreaper(), in main), so a process that leaves its parent
// (a double fork, setsid) is reparented to the judge, never lost. A process
// group or a session of its own does not take a process out of the family.
//
// stop() sends SIGSTOP (which cannot be caught or ignored) to every member and
// returns once every thread of every member is stopped; a process forked in
// between is found on the next pass, and stopped processes cannot fork, so
// the passes end. resume() continues exactly the processes stop() stopped.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace hpcjudge {

// Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER).
void become_subreaper();

// How long stop() waits past its limit for a thread in uninterruptible sleep (state D): such a thread runs
// nothing of its own (it is in the kernel: a device driver's call, a page fault) and stops on its way out. On
// the H200, with 12 grades at once under ctest, a racecheck runner once failed the 2 s limit (its state then
// not known).
inline constexpr std::chrono::microseconds kUninterruptibleGrace = std::chrono::seconds(8);

class ProcessFamily {
 public:
  explicit ProcessFamily(pid_t root) : root_(root) {}
  // Stops every member. False when some thread would not stop within `limit`, or `grace` more for one in
  // uninterruptible sleep (`why` says which, its state and where it waits): the caller then kills the family.
  bool stop(std::chrono::microseconds limit, std::string* why = nullptr,
            std::chrono::microseconds grace = kUninterruptibleGrace);
  void resume();
  // SIGKILL to every member until none is left, and reaps the orphans among them.
  void kill();
  // The members now (the root first).
  std::vector<pid_t> members() const;
  // The members the last stop() found (the root alone before the first).
  const std::vector<pid_t>& known() const { return known_; }
  // CPU time (ns) the known members have used, every thread together.
  uint64_t cpu_ns() const;

 private:
  pid_t root_;
  std::set<pid_t> signalled_;  // the processes the last stop() sent SIGSTOP to
  std::vector<pid_t> known_{root_};
};

// The threads of process `pid` (/proc/PID/task), none where it has ended.
std::vector<pid_t> threads_of(pid_t pid);

// Registers a child the judge starts itself (judge/isolation/process.cpp), so it is not taken for an orphan.
void note_own_child(pid_t pid, bool alive);

// Held from just before the judge forks a child of its own until note_spawned() has registered it: a family
// looked at meanwhile on another thread (a runner started beside the compile) never takes the new child,
// not yet registered, for an orphan of its own, to stop or to kill.
class SpawningOwnChild {
 public:
  SpawningOwnChild();
  ~SpawningOwnChild();
  SpawningOwnChild(const SpawningOwnChild&) = delete;
  SpawningOwnChild& operator=(const SpawningOwnChild&) = delete;
  void note_spawned(pid_t pid);
};

}  // namespace hpcjudge
