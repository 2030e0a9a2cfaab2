// expect: RE
// Types into the grader's terminal (issue 56, class 1): opens the controlling terminal (/dev/tty; else fd 0, 1 or 2
// where one is a terminal; else /dev/null) and pushes " echo pwned > /tmp/hpcjudge-proof-$UID" and a newline into its
// input queue character by character (ioctl TIOCSTI), then asks the console to paste its selection (TIOCLINUX), so
// that the grader's interactive shell runs the command once the judge exits. Stopped by: every process the judge
// starts is in a session of its own (no controlling terminal: /dev/tty is ENXIO), and its system-call filter kills
// it on TIOCSTI or TIOCLINUX whatever the fd: RE. tests/cli/terminal_test.sh grades it under a real terminal.
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

void type_into(int fd) {
  for (const char* c = " echo pwned > /tmp/hpcjudge-proof-$UID\n"; *c; ++c) ioctl(fd, TIOCSTI, c);
  char paste = TIOCL_PASTESEL;
  ioctl(fd, TIOCLINUX, &paste);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool typed = false;
  if (!typed) {
    typed = true;
    type_into(a_terminal());
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
