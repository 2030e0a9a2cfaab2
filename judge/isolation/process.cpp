#include "judge/isolation/process.h"

#include "judge/isolation/family.h"
#include "judge/isolation/syscall_filter.h"
#include "settings/settings.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <dirent.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <tuple>

namespace hpcjudge {

std::string ExitStatus::describe() const {
  if (exited) return "exit status " + std::to_string(code);
  const char* abbrev = sigabbrev_np(signal);
  const std::string named =
      "signal SIG" + std::string(abbrev ? abbrev : std::to_string(signal).c_str()) + " (" + strsignal(signal) + ")";
  return signal == SIGSYS ? named + ": " + kForbiddenCall : named;  // the syscall filter's kill
}

Child::Child(const SpawnOptions& opt) : uid_(opt.uid), limit_(opt.output_limit) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::vector<char*> argv;
  for (const auto& a : opt.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t judge = getpid();
  const FilterTargets targets = filter_targets_of_this_process();
  SpawningOwnChild spawning;
  pid_ = fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid_ == 0) {
    // A session of its own, and so a process group: no terminal reached through /dev/tty, and TIOCSTI refused
    // on any other (a terminal that is not a process's controlling one takes no input from it unprivileged).
    setsid();
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
    for (const auto& [resource, value] : {std::pair{RLIMIT_AS, opt.address_space}, std::pair{RLIMIT_CPU, size_t{opt.cpu_seconds}},
                                          std::pair{RLIMIT_FSIZE, opt.file_size}})
      if (value > 0) {
        const rlimit lim{value, value};
        setrlimit(resource, &lim);
      }
    if (!opt.cwd.empty() && chdir(opt.cwd.c_str()) != 0) {
      std::fprintf(stderr, "cannot enter %s: %s\n", opt.cwd.c_str(), std::strerror(errno));
      _exit(127);
    }
    if (opt.die_together && geteuid() == 0 && unshare(CLONE_NEWPID) == 0) {
      // The next child is the namespace's first process: when it ends, the kernel kills every process left in
      // the namespace. This one stays the judge's child, dies with the judge, and ends as that child ends.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != judge) _exit(127);
      const pid_t first = fork();
      if (first < 0) _exit(127);
      if (first > 0) {
        // It waits, and nothing more: none of the judge's files (its device files among them, which would make
        // it look like a process with device work: judge/isolation/device_lock.h) stays open in it.
        close_range(3, ~0U, 0);
        int st = 0;
        while (waitpid(first, &st, 0) < 0)
          if (errno != EINTR) _exit(127);
        if (WIFEXITED(st)) _exit(WEXITSTATUS(st));
        signal(WTERMSIG(st), SIG_DFL);
        ::kill(getpid(), WTERMSIG(st));
        _exit(128 + WTERMSIG(st));
      }
    }
    // (Not as an ordinary user: this process is not dumpable, so its user namespace's ids cannot be mapped.
    // The runner makes its own then: hpcjudge-runner --private-tmp.)
    if (geteuid() == 0 && enter_private_tmp(opt.private_tmp)) setenv(settings::kPrivateTmp.name, "1", 1);
    else unsetenv(settings::kPrivateTmp.name);
    const std::vector<gid_t> groups(opt.groups.begin(), opt.groups.end());
    if (opt.uid != 0 && (setgroups(groups.size(), groups.data()) != 0 || setresgid(opt.uid, opt.uid, opt.uid) != 0 ||
                         setresuid(opt.uid, opt.uid, opt.uid) != 0)) {
      std::fprintf(stderr, "cannot switch to user %u: %s\n", opt.uid, std::strerror(errno));
      _exit(127);
    }
    // Dies with the judge. Set after the change of user, which clears it; a
    // judge already gone by now is not noticed by the signal, so look.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // (The first process of a PID namespace of its own sees its parent, outside it, as 0.)
    if (getppid() != judge && getppid() != 0) _exit(127);
    if (opt.syscall_filter && !install_syscall_filter(targets)) {
      std::fprintf(stderr, "cannot install the syscall filter: %s\n", std::strerror(errno));
      _exit(127);
    }
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  // (Not setpgid here: a group made by the parent first would make the child's setsid fail. Until the child has
  // its session, kill() reaches it by its pid.)
  spawning.note_spawned(pid_);
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

std::string Child::take_line(size_t from, std::string_view mark) {
  const size_t at = output_.find(mark, std::min(from, output_.size()));
  if (at == std::string::npos || (at > 0 && output_[at - 1] != '\n')) return "";
  const size_t end = output_.find('\n', at);
  if (end == std::string::npos) return "";
  std::string line = output_.substr(at + mark.size(), end - at - mark.size());
  // The line break the emulator puts before its line (kStallMark's), where it made an empty line, goes with it.
  const size_t begin = at >= from + 1 && (at == 1 || output_[at - 2] == '\n') ? at - 1 : at;
  output_.erase(begin, end + 1 - begin);
  output_total_ -= std::min(output_total_, end + 1 - begin);
  return line;
}

Child::Wake Child::wait(int fd, Clock::time_point deadline, Clock::duration spin) {
  const auto spin_until = std::min(deadline, Clock::now() + spin);
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
    int timeout = pidfd_ >= 0 ? static_cast<int>(std::min<long long>(left, 1 << 30)) : static_cast<int>(std::min<long long>(left, 20));
    if (Clock::now() < spin_until) timeout = 0;
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
// (kill(-1) reaches exactly the processes of its own user). The helper shares
// the judge's memory until it exits (vfork): a fork would copy the judge's page
// tables, and its pinned pages whole. So it makes raw system calls only, which
// change its own credentials alone (glibc's setresuid would change those of
// every thread of the judge's), and the change from root drops its capabilities.
void kill_user(unsigned uid) {
  // Registered as the judge's own until it is reaped: a runner's family looked at meanwhile on another thread
  // took it for an orphan of its own and stopped it, and this thread, waiting in the vfork, with it, until that
  // runner's next call (a grade hung so in CI, its compile beside a runner starting).
  SpawningOwnChild spawning;
  const pid_t helper = vfork();
  if (helper == 0) {
    if (syscall(SYS_setresgid, uid, uid, uid) == 0 && syscall(SYS_setresuid, uid, uid, uid) == 0) {
      // Twice: a fork bomb may fork between the scan and the signal.
      syscall(SYS_kill, -1, SIGKILL);
      syscall(SYS_kill, -1, SIGKILL);
    }
    _exit(0);
  }
  if (helper > 0)
    while (waitpid(helper, nullptr, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace

void each_process(const std::function<void(int pid, unsigned uid, const std::string& stat)>& f) {
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

void Child::kill() {
  if (pid_ > 0 && !reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // before its setsid, the group is not yet there
  }
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
  return run_command(opt, timeout_s);
}

RunResult run_command(const SpawnOptions& opt, double timeout_s) {
  Child c(opt);
  RunResult r;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  if (c.wait(-1, deadline) == Child::Wake::Timeout) {
    r.timed_out = true;
    c.kill();
  }
  r.status = c.reap();
  if (opt.uid != 0) c.kill();  // a command run as a user of its own leaves none of its processes behind
  r.output = c.output();
  return r;
}

std::vector<int> process_family(int root) {
  std::multimap<int, int> children;  // parent -> child
  each_process([&](int pid, unsigned, const std::string& stat) {
    const size_t close = stat.rfind(')');
    int ppid = 0;
    if (close != std::string::npos && std::sscanf(stat.c_str() + close + 1, " %*c %d", &ppid) == 1)
      children.emplace(ppid, pid);
  });
  std::vector<int> family = {root};
  for (size_t i = 0; i < family.size(); ++i) {
    const auto [from, to] = children.equal_range(family[i]);
    for (auto it = from; it != to; ++it) family.push_back(it->second);
  }
  return family;
}

size_t family_memory_bytes(const std::vector<int>& pids, const std::vector<dev_t>& counted_apart) {
  const auto apart = [&](dev_t d) { return std::find(counted_apart.begin(), counted_apart.end(), d) != counted_apart.end(); };
  constexpr long kTmpfs = 0x01021994, kHugetlbfs = 0x958458f6;
  std::set<std::pair<dev_t, ino_t>> files;              // shared-memory files counted whole
  std::set<std::tuple<dev_t, ino_t, std::string>> maps;  // file mappings counted (device, inode, offset)
  size_t total = 0;
  // The files each process holds open: a memfd or /dev/shm file grown without
  // being mapped is memory no resident figure shows.
  for (int pid : pids) {
    const std::string fd_dir = "/proc/" + std::to_string(pid) + "/fd";
    DIR* d = opendir(fd_dir.c_str());
    if (!d) continue;
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      const std::string fd = fd_dir + "/" + e->d_name;
      struct stat st {};
      struct statfs fs {};
      if (stat(fd.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || statfs(fd.c_str(), &fs) != 0) continue;
      if ((fs.f_type != kTmpfs && fs.f_type != kHugetlbfs) || apart(st.st_dev)) continue;
      if (files.insert({st.st_dev, st.st_ino}).second) total += static_cast<size_t>(st.st_blocks) * 512;
    }
    closedir(d);
  }
  // Resident memory, mapping by mapping: anonymous memory by its share, a
  // file's pages once however many processes or mappings share them.
  for (int pid : pids) {
    std::ifstream smaps("/proc/" + std::to_string(pid) + "/smaps");
    std::string line;
    bool counted = true;  // the current mapping's pages are already in the total
    bool anonymous = false;
    while (std::getline(smaps, line)) {
      if (line.empty()) continue;
      if (std::isxdigit(static_cast<unsigned char>(line[0])) && line.find('-') < line.find(' ')) {
        // "start-end perms offset major:minor inode [path]"
        std::istringstream in(line);
        std::string range, perms, offset, dev;
        unsigned long inode = 0;
        in >> range >> perms >> offset >> dev >> inode;
        unsigned major = 0, minor = 0;
        std::sscanf(dev.c_str(), "%x:%x", &major, &minor);
        const dev_t device = makedev(major, minor);
        anonymous = inode == 0;
        counted = !anonymous && (files.count({device, inode}) || apart(device) || !maps.insert({device, inode, offset}).second);
        continue;
      }
      // Anonymous memory by its proportional share (Pss): pages a fork shares copy-on-write count
      // once across the family, not once per process. A file's pages: whole, at their first mapping.
      if (!counted && line.rfind(anonymous ? "Pss:" : "Rss:", 0) == 0)
        total += std::strtoull(line.c_str() + 4, nullptr, 10) * 1024;
    }
  }
  return total;
}

}  // namespace hpcjudge
