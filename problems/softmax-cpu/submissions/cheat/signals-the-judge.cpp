// expect: RE
// Signals the judge (issue 56, class 5): SIGSTOP, then SIGKILL, to its parent, the judge where the runner is the
// judge's child. As root the runner is a user of its own, which may not; as an ordinary user without the sandbox it
// is the judge's own user, which may where its Landlock confinement cannot scope signals (Linux before 6.12, no
// Landlock at all before 5.13), and the judge died with no verdict. Stopped by the system-call filter every process the
// judge starts has: a signal aimed at the judge's pid, at every process (-1) or at a process group not its own ends
// the process, RE; the judge grades on. Under the sandbox the judge is outside its pid namespace: its parent there
// is the sandbox's first process, which ignores the signals (AC, tests/cli/grader_machine_test.sh).
// hpcjudge-test: message=a system call no submission may make
#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

extern "C" void solve(const float* input, float* output, int N) {
  static bool tried = false;
  if (!tried) {
    tried = true;
    if (kill(getppid(), SIGSTOP) != 0) std::perror("kill SIGSTOP");
    if (kill(getppid(), SIGKILL) != 0) std::perror("kill SIGKILL");
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
