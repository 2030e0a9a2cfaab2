// expect: RE
// Types into the grader's terminal by the console's paste (issue 56, class 1; types-into-the-terminal.cpp tries
// TIOCSTI first, which ends it before this): ioctl TIOCLINUX with TIOCL_PASTESEL on the controlling terminal (else
// fd 0, 1 or 2 where one is a terminal, else /dev/null), which on a Linux virtual console pastes the mouse selection
// into the shell's input. Stopped by the system-call filter every process the judge starts has: TIOCLINUX on any
// fd ends the process, RE.
// hpcjudge-test: message=a system call no submission may make
#include <fcntl.h>
#include <linux/tiocl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>

namespace {

int a_terminal() {
  const int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
  if (tty >= 0) return tty;
  for (int fd = 0; fd <= 2; ++fd)
    if (isatty(fd)) return fd;
  return open("/dev/null", O_RDWR);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool pasted = false;
  if (!pasted) {
    pasted = true;
    char paste = TIOCL_PASTESEL;
    ioctl(a_terminal(), TIOCLINUX, &paste);
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
