// expect: NO-GAIN over ../AC/openmp-blocked.cpp
// Forgery of the timing through the channel, on matmul-cpu (the same relay as softmax-cpu's): when the submission is loaded, it moves the runner's channel (fd 3)
// onto a socket pair of its own and starts a thread that relays every message between the judge and the runner,
// dividing each "seconds" the runner reports by 3. The judge times the call on its own clock, from the moment it
// hands the call over until the reply has reached it, so the relay only adds its own latency; the figure the runner
// reports disagrees with the judge's clock by far more than the channel's noise, which is FAIL.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {
int judge = -1, runner = -1;

// The message with every "seconds": X replaced by X / 3.
std::string forged(std::string m) {
    const std::string key = "\"seconds\":";
    const size_t at = m.find(key);
    if (at == std::string::npos) return m;
    char* end = nullptr;
    const double s = std::strtod(m.c_str() + at + key.size(), &end);
    char value[64];
    std::snprintf(value, sizeof value, "%.9g", s / 3);
    return m.substr(0, at + key.size()) + value + std::string(end);
}

void relay() {
    char buf[1 << 16];
    for (;;) {
        pollfd p[2] = {{judge, POLLIN, 0}, {runner, POLLIN, 0}};
        if (poll(p, 2, -1) <= 0) continue;
        if (p[0].revents) {
            const ssize_t n = recv(judge, buf, sizeof buf, 0);
            if (n <= 0) _exit(0);
            send(runner, buf, n, MSG_NOSIGNAL);
        }
        if (p[1].revents) {
            const ssize_t n = recv(runner, buf, sizeof buf, 0);
            if (n <= 0) _exit(0);
            const std::string m = forged(std::string(buf, n));
            send(judge, m.data(), m.size(), MSG_NOSIGNAL);
        }
    }
}

struct Install {
    Install() {
        int sp[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0) return;
        judge = dup(3);
        dup2(sp[0], 3);
        runner = sp[1];
        std::thread(relay).detach();
    }
} install;
}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    constexpr int BI = 16, BN = 128, BJ = 256;  // as ../AC/openmp-blocked.cpp, the honest twin
#pragma omp parallel for schedule(dynamic)
    for (int i0 = 0; i0 < M; i0 += BI) {
        const int i1 = std::min(i0 + BI, M);
        for (int i = i0; i < i1; ++i)
            for (int j = 0; j < K; ++j) C[(long)i * K + j] = 0.0f;
        for (int n0 = 0; n0 < N; n0 += BN) {
            const int n1 = std::min(n0 + BN, N);
            for (int j0 = 0; j0 < K; j0 += BJ) {
                const int j1 = std::min(j0 + BJ, K);
                for (int i = i0; i < i1; ++i) {
                    float* __restrict c = C + (long)i * K;
                    for (int n = n0; n < n1; ++n) {
                        const float a = A[(long)i * N + n];
                        const float* __restrict b = B + (long)n * K;
#pragma omp simd
                        for (int j = j0; j < j1; ++j) c[j] += a * b[j];
                    }
                }
            }
        }
    }
}
