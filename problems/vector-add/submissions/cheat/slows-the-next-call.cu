// expect: NO-GAIN over ../AC/float4-grid-stride.cu
// Forgery by slowing the other side, on the device: the fast reference (and the baseline) are timed beside the
// submission, their calls right after its own in five of the six orders (rivals.cpp, call_order). The judge stops
// the runner's processes once its reply is in, but stopping a process stops none of its GPU work, and the driver's
// process lock is taken only before the judge next writes this runner's buffers. So this file relays the runner's
// channel (as early-reply-kernel-in-flight.cu does) and, the moment the runner's honest reply to a performance call
// has gone to the judge, launches a grid that fills every SM and spins for 4 ms, writing nothing, for the next
// runner's kernel to wait behind at the GPU's time slices. It gains nothing: the grid is on the GPU before the
// judge's own fence, which ends this call's interval, and that fence then waits for a time slice too. On an H100
// with every device lock off (a comparison switch since deleted) it scored 87.4 +- 2.3 and 85.2 +- 4.4
// against its twin's 101.9 +- 4.0 and 100.5 +- 4.3 (n32M at 1.25x the fast reference's time, a mean of 370 us
// against a median of 278: its own calls slowed, the rivals' not). A lock after each timed call, which would
// wait for the grid before the next runner's call, was tried and left out: it moved the short cases' scores
// (docs/design.md, "Device work between calls"). Kept as the attempt, so a change to the fence that let the grid
// reach the next call shows up here.
// hpcjudge-test: bench
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

namespace {

int judge = -1, runner = -1;
std::atomic<bool> in_call{false};    // a call request passed, its reply not yet
std::atomic<bool> large{false};      // the call in flight is a performance case's
std::atomic<int> device{-1};         // the device solve() ran on
std::atomic<int> sms{0};

__global__ void hog(unsigned long long ns) {
    unsigned long long start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    for (;;) {
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start >= ns) break;
    }
}

void slow_the_next_call() {
    static cudaStream_t s = nullptr;
    if (device.load() < 0) return;
    cudaSetDevice(device.load());
    if (!s) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    hog<<<8 * sms.load(), 256, 0, s>>>(4000000ULL);
}

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
    const bool call = from_judge && std::string(buf, n).find("\"op\":\"call\"") != std::string::npos;
    iov.iov_len = static_cast<size_t>(n);
    if (m.msg_controllen == 0) m.msg_control = nullptr;
    sendmsg(to, &m, MSG_NOSIGNAL);
    if (call) in_call = true;
    if (!from_judge && in_call.exchange(false) && large.load()) slow_the_next_call();  // the reply has gone
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

// The honest twin's kernel and launch.
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
    if (sms.load() == 0) {
        int dev = 0, n = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
        sms = n > 0 ? n : 1;
        device = dev;
    }
    large = N >= (1 << 24);
    const int threads = 256;
    const long long n4 = (long long)N / 4;
    long long blocks = (n4 + threads - 1) / threads;
    if (blocks > 8LL * sms.load()) blocks = 8LL * sms.load();
    if (blocks < 1) blocks = 1;
    add4<<<(int)blocks, threads>>>(A, B, C, N);
}
