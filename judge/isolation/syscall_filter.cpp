#include "judge/isolation/syscall_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace hpcjudge {

namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
constexpr uint32_t kX32Bit = 0x40000000;  // __X32_SYSCALL_BIT: another ABI's numbers on the same architecture
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
#error "the syscall filter knows x86-64 and AArch64 only"
#endif

constexpr uint32_t kKill = SECCOMP_RET_KILL_PROCESS, kAllow = SECCOMP_RET_ALLOW;
// The low 32 bits of an argument (little-endian): a pid_t or an ioctl's unsigned command, as the kernel reads it.
constexpr uint32_t arg(int i) { return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * i); }

// A fixed-size program written in order (no allocation: it is built in a child after fork).
class Program {
 public:
  void add(sock_filter f) {
    if (n_ < kMax) code_[n_++] = f;
    else overflow_ = true;
  }
  void load(uint32_t offset) { add(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void ret(uint32_t action) { add(BPF_STMT(BPF_RET | BPF_K, action)); }
  // Syscall `nr` is killed where argument `a` is one of `values` (n of them; zeros skipped), else allowed. Other
  // syscalls go on past the block.
  void deny_where(long nr, int a, const uint32_t* values, int n) {
    int used = 0;
    for (int i = 0; i < n; ++i) used += values[i] != 0;
    load(offsetof(seccomp_data, nr));
    add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, static_cast<uint8_t>(used + 3)));
    load(arg(a));
    int left = used;
    for (int i = 0; i < n; ++i)
      if (values[i] != 0) add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], static_cast<uint8_t>(left--), 0));
    ret(kAllow);
    ret(kKill);
  }
  // Syscall `nr` is allowed where argument `a` is one of `values` (n of them), else killed.
  void allow_only_where(long nr, int a, const uint32_t* values, int n) {
    load(offsetof(seccomp_data, nr));
    add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, static_cast<uint8_t>(n + 3)));
    load(arg(a));
    for (int i = 0; i < n; ++i) add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], static_cast<uint8_t>(n - i), 0));
    ret(kKill);
    ret(kAllow);
  }
  void deny(long nr) {
    load(offsetof(seccomp_data, nr));
    add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1));
    ret(kKill);
  }
  bool install() {
    if (overflow_) return false;
    sock_fprog prog{static_cast<unsigned short>(n_), code_};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
  }

 private:
  static constexpr int kMax = 96;
  sock_filter code_[kMax] = {};
  int n_ = 0;
  bool overflow_ = false;
};

constexpr uint32_t negated(pid_t p) { return p > 0 ? static_cast<uint32_t>(-p) : 0; }

}  // namespace

FilterTargets filter_targets_of_this_process() {
  return {.judge = getpid(), .starter = getppid(), .group = getpgrp(), .leader = getsid(0)};
}

bool install_syscall_filter(const FilterTargets& t) {
  Program p;
  p.load(offsetof(seccomp_data, arch));
  p.add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  p.ret(kKill);
#if defined(__x86_64__)
  p.load(offsetof(seccomp_data, nr));
  p.add(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, 0, 1));
  p.ret(kKill);
#endif
  const uint32_t terminal[] = {TIOCSTI, TIOCLINUX};
  p.deny_where(SYS_ioctl, 1, terminal, 2);
  const uint32_t own[] = {0, static_cast<uint32_t>(getpid())};
  p.allow_only_where(SYS_prlimit64, 0, own, 2);
  // Positive pids: the judge, its starter and the session's leader (pid 1 is never among them: init, or the
  // first process of a container, is not the judge's to lose either). Negative: every process, and the groups.
  const auto positive = [](pid_t x) { return x > 1 ? static_cast<uint32_t>(x) : 0u; };
  const uint32_t signalled[] = {positive(t.judge),   positive(t.starter),   positive(t.leader),
                                static_cast<uint32_t>(-1), negated(t.group), negated(t.judge),
                                negated(t.starter),  negated(t.leader)};
  p.deny_where(SYS_kill, 0, signalled, 8);
  p.deny_where(SYS_rt_sigqueueinfo, 0, signalled, 8);
  p.deny_where(SYS_tgkill, 0, signalled, 3);
  p.deny_where(SYS_rt_tgsigqueueinfo, 0, signalled, 3);
  p.deny_where(SYS_process_vm_readv, 0, signalled, 3);
  p.deny_where(SYS_process_vm_writev, 0, signalled, 3);
  p.deny_where(SYS_ptrace, 1, signalled, 3);
  p.deny(SYS_tkill);
  p.deny(SYS_pidfd_send_signal);
  p.deny(SYS_pidfd_getfd);
  p.ret(kAllow);
  return p.install();
}

}  // namespace hpcjudge
