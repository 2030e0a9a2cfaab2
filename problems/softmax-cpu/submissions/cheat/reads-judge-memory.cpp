// expect: RE
// hpcjudge-test: message=a system call no submission may make
// Cheat on the judge: the expected outputs live in the judge's memory, so this solution tries to read it through
// /proc/<judge>/mem (and to attach with ptrace) to copy them. If either works it aborts (RE by SIGABRT, another
// message); otherwise it computes a correct softmax. The read fails: the judge is not dumpable (PR_SET_DUMPABLE 0),
// and run as root it gives the runner a user id of its own. The attach is a system call no submission may make
// (judge/isolation/syscall_filter.h): the runner is killed by SIGSYS, which the report names.
#include <fcntl.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" void solve(const float* input, float* output, int N) {
    const pid_t judge = getppid();
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/mem", static_cast<int>(judge));
    const int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        char byte;
        // Any readable page will do: the first mapping of the judge's heap is never at address 0.
        if (pread(fd, &byte, 1, 0x400000) >= 0) std::abort();
        close(fd);
    }
    if (ptrace(PTRACE_ATTACH, judge, nullptr, nullptr) == 0) std::abort();
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
