// expect: NO-GAIN over ../AC/float4-grid-stride.cu
// Forgery of the timing through the channel, on a GPU problem: when the submission is loaded it moves the runner's
// channel (fd 3) onto a socket pair of its own and relays every message, the descriptors that travel with them
// included (the judge's device buffers), dividing each "seconds" the runner reports by 3. The judge times the call
// on its own clock (until a fence of its own on the device after the reply), so the relay only adds latency, and the
// runner's figure, a third of the judge's, is FAIL.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {
int judge = -1, runner = -1;

// Moves one message from `from` to `to`, with its descriptor if it has one; "seconds" divided by 3 if `forge`.
bool pass(int from, int to, bool forge) {
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
    std::string text(buf, n);
    const size_t at = text.find("\"seconds\":");
    if (forge && at != std::string::npos) {
        char* end = nullptr;
        const double s = std::strtod(text.c_str() + at + 10, &end);
        char value[64];
        std::snprintf(value, sizeof value, "%.9g", s / 3);
        text = text.substr(0, at + 10) + value + std::string(end);
    }
    iov = {text.data(), text.size()};
    if (m.msg_controllen == 0) m.msg_control = nullptr;
    sendmsg(to, &m, MSG_NOSIGNAL);
    return true;
}

void relay() {
    for (;;) {
        pollfd p[2] = {{judge, POLLIN, 0}, {runner, POLLIN, 0}};
        if (poll(p, 2, -1) <= 0) continue;
        if (p[0].revents && !pass(judge, runner, false)) _exit(0);
        if (p[1].revents && !pass(runner, judge, true)) _exit(0);
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

__global__ void add4(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, long long N) {
    const long long n4 = N / 4;
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const float4* a = reinterpret_cast<const float4*>(A);
    const float4* b = reinterpret_cast<const float4*>(B);
    float4* c = reinterpret_cast<float4*>(C);
    for (long long i = tid; i < n4; i += stride) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    const long long t = n4 * 4 + tid;
    if (t < N) C[t] = A[t] + B[t];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    int dev = 0, sms = 1;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    long long blocks = ((long long)N / 4 + 255) / 256;
    if (blocks > 8LL * sms) blocks = 8LL * sms;
    if (blocks < 1) blocks = 1;
    add4<<<(int)blocks, 256>>>(A, B, C, N);
}
