// Child processes of the judge: the compiler and the runner. Each child gets
// a session of its own (so a kill of its process group takes every thread and
// grandchild with it, and no terminal is its controlling terminal: /dev/tty is
// not the grader's), the syscall filter (judge/isolation/syscall_filter.h), its stdout and stderr merged into one pipe that the judge drains while
// it waits (the first `output_limit` bytes are kept, the rest only counted, so
// a child that floods its output never stalls the judge), and a pidfd so the
// judge learns of its exit without polling. A child dies with the judge
// (PR_SET_PDEATHSIG): a compiler or runner never outlives it. The signal comes
// when the judge's thread that spawned the child ends, not only the process:
// spawn a runner on a thread that outlives it.
#pragma once
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/private_tmp.h"

namespace hpcjudge {

using Clock = std::chrono::steady_clock;

// Calls f(pid, the uid that owns /proc/<pid>, the /proc/<pid>/stat line) for every process this one can see.
void each_process(const std::function<void(int pid, unsigned uid, const std::string& stat)>& f);

struct ExitStatus {
  bool exited = false;  // normal exit, with `code`
  int code = 0;
  int signal = 0;       // killed by this signal
  std::string describe() const;  // "exit status 3", "signal SIGSEGV (Segmentation fault)"
};

struct SpawnOptions {
  std::vector<std::string> argv;
  std::vector<std::pair<int, int>> pass_fds;  // (fd in the child, fd in the judge)
  std::vector<std::pair<std::string, std::string>> env;  // added to the judge's environment
  size_t output_limit = 64 * 1024;
  // Run as this user id (the judge must be root; 0: as the judge), and limit the
  // tasks (processes and threads) of the child's user to max_tasks (RLIMIT_NPROC;
  // 0: no limit). A fork bomb then stops at the limit, and kill() ends every
  // process of that user, whatever its process group.
  unsigned uid = 0;
  std::vector<unsigned> groups;  // with uid: its supplementary groups (none by default)
  unsigned long max_tasks = 0;
  std::filesystem::path cwd;     // starts there (empty: the judge's own)
  // Resource limits (0: none). address_space: RLIMIT_AS, what a compiler may map.
  // cpu_seconds: RLIMIT_CPU, CPU time of each process (SIGXCPU, then SIGKILL).
  // file_size: RLIMIT_FSIZE, the largest file the child may write or grow,
  // memfds and /dev/shm included (ftruncate, fallocate, write past it: SIGXFSZ),
  // so memory held in a file counts against a bound the address space misses.
  size_t address_space = 0;
  unsigned long cpu_seconds = 0;
  size_t file_size = 0;
  // Root only: the command runs as the first process of a PID namespace of its own, below a process of the
  // judge's that waits for it and ends as it ends. Whatever the command starts is then killed with it, when
  // it ends or is killed, and when the judge dies (the waiting process dies with the judge, and the command
  // with that process): a compiler's own children (cc1plus reading /dev/zero) outlived a killed judge.
  bool die_together = false;
  // Where private_tmp.tmpdir is set and the judge is root: the child's TMPDIR and /dev/shm are mounts of its own
  // (protocol/private_tmp.h), and HPCJUDGE_PRIVATE_TMP (settings::kPrivateTmp) is set in its environment where they were made.
  PrivateTmp private_tmp;
  // The child and all it starts under the syscall filter (judge/isolation/syscall_filter.h). Off only for the
  // judge's own programs that manage runners themselves (a batch's judges, which signal their runners' users).
  bool syscall_filter = true;
};

class Child {
 public:
  explicit Child(const SpawnOptions& opt);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  enum class Wake { Readable, Exited, Timeout };
  // Drains output until `fd` is readable (fd < 0: only waits for the exit), the
  // child exits, or the deadline passes. For the first `spin` it polls without
  // sleeping: a reply read on a core that never went idle (a timed GPU call's).
  Wake wait(int fd, Clock::time_point deadline, Clock::duration spin = {});
  void kill();          // SIGKILL to the whole process group (and every process of its own user)
  // Processes in its process group or of its own user: more than a few is a fork bomb.
  size_t processes() const;
  ExitStatus reap();    // waits for the exit; drains what is left of the output
  bool running() const { return pid_ > 0 && !reaped_; }
  int pid() const { return pid_; }

  const std::string& output() const { return output_; }
  size_t output_bytes() const { return output_total_; }  // all that was printed, kept or not
  // The first whole line of the output at or after byte `from` that starts with `mark`, without the mark, taken
  // out of the output (a line the judge asked for, not the submission's); "" while there is none. A line break
  // right before it, at or after `from`, that leaves an empty line goes too.
  std::string take_line(size_t from, std::string_view mark);

 private:
  void drain();
  int pid_ = -1;
  int pidfd_ = -1;
  unsigned uid_ = 0;
  int out_ = -1;
  bool reaped_ = false;
  ExitStatus status_;
  size_t limit_;
  std::string output_;
  size_t output_total_ = 0;
};

// Runs a command to completion (or kills it at the deadline) and returns its
// status and output: for the compiler and other tools.
struct RunResult {
  ExitStatus status;
  bool timed_out = false;
  std::string output;
};
RunResult run_command(const std::vector<std::string>& argv, double timeout_s, size_t output_limit = 256 * 1024);
RunResult run_command(const SpawnOptions& opt, double timeout_s);

// Tasks (threads of all processes) whose real user is `uid`: what RLIMIT_NPROC counts.
size_t tasks_of_user(unsigned uid);

// A user id of its own for one runner (the judge running as root): different
// for every call in this process (a judge may hold several runners at once, and
// killing one's user must not kill the others) and from every other judge's.
unsigned fresh_runner_uid();

// The host memory a family of processes holds, in bytes: the memory of each
// (from /proc/PID/smaps: anonymous memory by its proportional share, so pages a
// fork shares copy-on-write count once; a file's resident pages once) plus
// the pages of every shared-memory file any of them has open but not mapped
// (a memfd grown with fallocate, a file in /dev/shm), each file counted once.
// A process that is gone counts nothing.
// Files on a device in `counted_apart` (a runner's own tmpfs mounts, counted whole: private_tmp_bytes) are left out.
size_t family_memory_bytes(const std::vector<int>& pids, const std::vector<dev_t>& counted_apart = {});

// The processes whose ancestry reaches `root` (itself included) right now.
std::vector<int> process_family(int root);

}  // namespace hpcjudge
