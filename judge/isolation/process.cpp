#include "judge/isolation/process.h"

#include "judge/isolation/family.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <dirent.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace hpcjudge {

std::string ExitStatus::describe() const {
  if (exited) return "exit status " + std::to_string(code);
  const char* abbrev = sigabbrev_np(signal);
  return "signal SIG" + std::string(abbrev ? abbrev : std::to_string(signal).c_str()) + " (" + strsignal(signal) + ")";
}

Child::Child(const SpawnOptions& opt) : uid_(opt.uid), limit_(opt.output_limit) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::vector<char*> argv;
  for (const auto& a : opt.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid_ == 0) {
    setpgid(0, 0);
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    // Move the passed fds to where the child expects them (clears close-on-exec).
    // First out of the way (a source may sit on another's target), then into place.
    std::vector<std::pair<int, int>> moved;
    for (const auto& [to, from] : opt.pass_fds) moved.push_back({to, fcntl(from, F_DUPFD_CLOEXEC, 100)});
    for (const auto& [to, from] : moved) dup2(from, to);
    for (const auto& [k, v] : opt.env) setenv(k.c_str(), v.c_str(), 1);
    if (opt.max_tasks > 0) {
      const rlimit lim{opt.max_tasks, opt.max_tasks};
      setrlimit(RLIMIT_NPROC, &lim);
    }
    const std::vector<gid_t> groups(opt.groups.begin(), opt.groups.end());
    if (opt.uid != 0 && (setgroups(groups.size(), groups.data()) != 0 || setresgid(opt.uid, opt.uid, opt.uid) != 0 ||
                         setresuid(opt.uid, opt.uid, opt.uid) != 0)) {
      std::fprintf(stderr, "cannot switch to user %u: %s\n", opt.uid, std::strerror(errno));
      _exit(127);
    }
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid_, pid_);
  note_own_child(pid_, true);
  close(pipefd[1]);
  out_ = pipefd[0];
  fcntl(out_, F_SETFL, O_NONBLOCK);
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
}

Child::~Child() {
  if (running()) {
    kill();
    reap();
  }
  if (out_ >= 0) close(out_);
  if (pidfd_ >= 0) close(pidfd_);
}

void Child::drain() {
  char buf[65536];
  for (;;) {
    ssize_t n = read(out_, buf, sizeof buf);
    if (n <= 0) return;
    output_total_ += n;
    if (output_.size() < limit_) output_.append(buf, std::min<size_t>(n, limit_ - output_.size()));
  }
}

Child::Wake Child::wait(int fd, Clock::time_point deadline) {
  for (;;) {
    pollfd p[3];
    int np = 0;
    p[np++] = {out_, POLLIN, 0};
    const int exit_slot = pidfd_ >= 0 ? np : -1;
    if (pidfd_ >= 0) p[np++] = {pidfd_, POLLIN, 0};
    const int fd_slot = fd >= 0 ? np : -1;
    if (fd >= 0) p[np++] = {fd, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Wake::Timeout;
    // Without a pidfd, wake up now and then to look for the exit.
    const int timeout = pidfd_ >= 0 ? static_cast<int>(std::min<long long>(left, 1 << 30)) : static_cast<int>(std::min<long long>(left, 20));
    int r = poll(p, np, timeout);
    if (r < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "poll");
    if (p[0].revents) drain();
    if (fd_slot >= 0 && (p[fd_slot].revents & (POLLIN | POLLHUP))) return Wake::Readable;
    if (exit_slot >= 0 && p[exit_slot].revents) return Wake::Exited;
    if (pidfd_ < 0) {
      int st;
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        note_own_child(pid_, false);
        status_.exited = WIFEXITED(st);
        status_.code = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
        status_.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        return Wake::Exited;
      }
    }
  }
}

namespace {

// SIGKILL to every process of user `uid`, from a helper that becomes that user
// (kill(-1) reaches exactly the processes of its own user).
void kill_user(unsigned uid) {
  const pid_t helper = fork();
  if (helper == 0) {
    if (setresgid(uid, uid, uid) == 0 && setresuid(uid, uid, uid) == 0) {
      // Twice: a fork bomb may fork between the scan and the signal.
      ::kill(-1, SIGKILL);
      ::kill(-1, SIGKILL);
    }
    _exit(0);
  }
  if (helper > 0)
    while (waitpid(helper, nullptr, 0) < 0 && errno == EINTR) {
    }
}

// Calls f(pid, uid of /proc/<pid>, the /proc/<pid>/stat line) for every process.
template <class F>
void each_process(F f) {
  DIR* d = opendir("/proc");
  if (!d) return;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string dir = std::string("/proc/") + e->d_name;
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) continue;
    std::ifstream in(dir + "/stat");
    std::string line;
    std::getline(in, line);
    f(std::atoi(e->d_name), static_cast<unsigned>(st.st_uid), line);
  }
  closedir(d);
}

}  // namespace

void Child::kill() {
  if (pid_ > 0 && !reaped_) ::kill(-pid_, SIGKILL);
  if (uid_ != 0) kill_user(uid_);
}

size_t Child::processes() const {
  size_t n = 0;
  each_process([&](int, unsigned uid, const std::string& stat) {
    // The process group is the third field after the command name in parentheses.
    const size_t close = stat.rfind(')');
    int pgrp = 0;
    if (close != std::string::npos) std::sscanf(stat.c_str() + close + 1, " %*c %*d %d", &pgrp);
    if ((uid_ != 0 && uid == uid_) || (pid_ > 0 && pgrp == pid_)) ++n;
  });
  return n;
}

unsigned fresh_runner_uid() {
  // 2e9 + 64 ids per process id below 10^6: under 2^31, clear of real users.
  static std::atomic<unsigned> next{0};
  return 2'000'000'000u + static_cast<unsigned>(getpid() % 1'000'000) * 64u + next++ % 64u;
}

size_t tasks_of_user(unsigned uid) {
  size_t n = 0;
  each_process([&](int pid, unsigned owner, const std::string&) {
    if (owner != uid) return;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Threads:", 0) == 0) n += std::strtoul(line.c_str() + 8, nullptr, 10);
  });
  return n;
}

ExitStatus Child::reap() {
  if (!reaped_) {
    int st = 0;
    while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    note_own_child(pid_, false);
    status_.exited = WIFEXITED(st);
    status_.code = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
    status_.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    // Whatever else is left in the group (a daemonised grandchild) goes too.
    ::kill(-pid_, SIGKILL);
  }
  // Read what is left without blocking on a grandchild that holds the pipe open.
  drain();
  return status_;
}

RunResult run_command(const std::vector<std::string>& argv, double timeout_s, size_t output_limit) {
  SpawnOptions opt;
  opt.argv = argv;
  opt.output_limit = output_limit;
  Child c(opt);
  RunResult r;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  if (c.wait(-1, deadline) == Child::Wake::Timeout) {
    r.timed_out = true;
    c.kill();
  }
  r.status = c.reap();
  r.output = c.output();
  return r;
}

}  // namespace hpcjudge
