// The system calls no process the judge starts may make (a seccomp filter, installed in the child between fork and
// exec, inherited by everything it starts and never lifted). Each is a way out to the grader's machine that the
// other defences leave open somewhere (a kernel without Landlock, an ordinary user without the sandbox):
//   - ioctl TIOCSTI and TIOCLINUX, on any file: typing into a terminal's input queue, which the grader's shell
//     reads once the judge is done (Linux before 6.2 cannot switch TIOCSTI off at all);
//   - prlimit64 on another process: lowering the judge's own limits (RLIMIT_NOFILE 0 aborted it, RLIMIT_FSIZE 0
//     killed it);
//   - a signal to the judge, to the process that started it or to its session's leader, to every process (-1) or
//     to one of their process groups; tkill and pidfd_send_signal, which name no process the filter can
//     check; pidfd_getfd, another process's files; ptrace and process_vm_readv/writev aimed at the judge or its
//     starter.
// The process that tries is killed (SIGSYS), so an attempt is a verdict of its own (the runner's RE names it:
// process.h, ExitStatus::describe) rather than a failure the code may ignore. A system call of another ABI than
// the judge's (32-bit int 0x80, x32) is killed too: the filter could not read its arguments.
#pragma once

#include <sys/types.h>

namespace hpcjudge {

// The processes a child may not signal or trace (0: none), read before fork.
struct FilterTargets {
  pid_t judge = 0;    // the judge (the child's parent)
  pid_t starter = 0;  // the judge's parent (a shell, a batch's judge)
  pid_t group = 0;    // the judge's process group
  pid_t leader = 0;   // the judge's session's leader (the grader's shell)
};

FilterTargets filter_targets_of_this_process();

// Installs the filter on the calling process (a child after fork: allocates nothing, async-signal-safe). Sets
// no_new_privs, which a filter needs without CAP_SYS_ADMIN. Returns false where the kernel refused it.
bool install_syscall_filter(const FilterTargets& t);

// The words a report gives to a process killed by SIGSYS: what the filter above forbids, and the CPU emulator's
// own filter (emulate/runtime/guard.cpp).
inline constexpr const char* kForbiddenCall =
    "a system call no submission may make (typing into a terminal, changing another process's limits, "
    "signalling or tracing the judge, or under CPU emulation changing how device memory is mapped or protected)";

}  // namespace hpcjudge
