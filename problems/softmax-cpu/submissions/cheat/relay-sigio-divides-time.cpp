// expect: NO-GAIN over honest-twin.cpp
// The channel relay of relay-thread-divides-time.cpp without a thread: both ends are non-blocking and signal-driven
// (O_ASYNC, F_SETOWN), and a SIGIO handler relays every message that is ready, dividing the runner's "seconds" by 3.
// The judge's clock does not read the runner's figure, and the figure disagrees with it: FAIL.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {
int judge = -1, runner = -1;

void pump(int from, int to, bool forge) {
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = recv(from, buf, sizeof buf - 1, MSG_DONTWAIT);
        if (n <= 0) return;
        buf[n] = 0;
        char out[1 << 16];
        size_t len = static_cast<size_t>(n);
        std::memcpy(out, buf, len);
        if (forge) {
            if (char* at = std::strstr(buf, "\"seconds\":")) {
                char* end = nullptr;
                const double s = std::strtod(at + 10, &end);
                const int head = static_cast<int>(at + 10 - buf);
                len = static_cast<size_t>(std::snprintf(out, sizeof out, "%.*s%.9g%s", head, buf, s / 3, end));
            }
        }
        send(to, out, len, MSG_NOSIGNAL);
    }
}

void on_sigio(int) {
    const int saved = errno;
    pump(judge, runner, false);
    pump(runner, judge, true);
    errno = saved;
}

struct Install {
    Install() {
        int sp[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0) return;
        judge = dup(3);
        dup2(sp[0], 3);
        runner = sp[1];
        struct sigaction sa {};
        sa.sa_handler = on_sigio;
        sa.sa_flags = SA_RESTART;
        sigaction(SIGIO, &sa, nullptr);
        for (int fd : {judge, runner}) {
            fcntl(fd, F_SETOWN, getpid());
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC | O_NONBLOCK);
        }
    }
} install;
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    on_sigio(0);  // anything that arrived before the handler was in place
    float m = -INFINITY;
#pragma omp parallel for reduction(max : m)
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    const float inv = static_cast<float>(1.0 / s);
#pragma omp parallel for
    for (int i = 0; i < N; ++i) output[i] = std::exp(input[i] - m) * inv;
}
