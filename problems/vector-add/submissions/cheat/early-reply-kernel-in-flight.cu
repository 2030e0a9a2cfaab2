// expect: NO-GAIN over ../AC/float4-grid-stride.cu
// Forgery of the timing by an early reply: the submission relays the runner's channel (as
// relay-thread-divides-time.cu does), so it knows the sequence number of each call. On a call it launches its kernel
// and at once sends the judge a reply with that number, then lets the runner synchronise as usual (the runner's own
// reply arrives later and is ignored). The judge stops the runner's processes when the forged reply arrives, but the
// kernel already queued runs on: the judge's clock ends only after a fence of its own on the device, enqueued after
// the reply, so a kernel that finishes is inside the interval, and one that does not has not written the outputs
// the judge reads (WA).
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {
int judge = -1, runner = -1;
std::atomic<long long> call_seq{-1};

bool pass(int from, int to, bool from_judge) {
    char buf[1 << 16];
    iovec iov{buf, sizeof buf};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr m{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    const ssize_t n = recvmsg(from, &m, 0);
    if (n <= 0) return false;
    const std::string text(buf, n);
    if (from_judge && text.find("\"op\":\"call\"") != std::string::npos) {
        const size_t at = text.find("\"seq\":");
        if (at != std::string::npos) call_seq = std::atoll(text.c_str() + at + 6);
    }
    iov.iov_len = static_cast<size_t>(n);
    if (m.msg_controllen == 0) m.msg_control = nullptr;
    sendmsg(to, &m, MSG_NOSIGNAL);
    return true;
}

void relay() {
    for (;;) {
        pollfd p[2] = {{judge, POLLIN, 0}, {runner, POLLIN, 0}};
        if (poll(p, 2, -1) <= 0) continue;
        if (p[0].revents && !pass(judge, runner, true)) _exit(0);
        if (p[1].revents && !pass(runner, judge, false)) _exit(0);
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

__global__ void add(const float* A, const float* B, float* C, long long N) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    add<<<1024, 256>>>(A, B, C, N);
    const long long seq = call_seq.load();
    if (seq >= 0 && N >= (1 << 20)) {
        char reply[128];
        const int len = std::snprintf(reply, sizeof reply, "{\"seq\":%lld,\"ok\":true,\"seconds\":1e-6}", seq);
        send(judge, reply, len, MSG_NOSIGNAL);
    }
}
