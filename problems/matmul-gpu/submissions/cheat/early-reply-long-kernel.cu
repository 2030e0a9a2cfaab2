// expect: NO-GAIN over ../AC/tiled.cu
// Forgery of the timing by an early reply with a kernel longer than the GPU's time slice: the submission relays the
// runner's channel (as vector-add/cheat/early-reply-kernel-in-flight.cu does), launches the honest tiled kernel and,
// on the skinny performance case alone, at once sends the judge a reply with the call's sequence number, reporting a
// time the judge's cross-check passes. The judge's clock ends at a fence of its own on the device after the reply;
// behind a kernel of another context that fence is served at a time slice's end rather than at the kernel's end
// (on the H200, replying early on every large case, the square-8192 outputs the judge read were
// still partly the sentinel: WA). Where the read-back took the inputs first (A alone is 256 MiB there, C 2 MiB), the
// kernel had milliseconds to finish C before it was read; the judge reads the outputs first, so C is read as the
// fence left it.
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

constexpr int T = 32;  // tile size; each of the 16x16 threads computes rows ty, ty+16 and columns tx, tx+16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                             int N, int K) {
    __shared__ float As[T][T + 1];  // +1: no bank conflicts on column reads
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};

    for (int n0 = 0; n0 < N; n0 += T) {
        // Each thread loads 4 elements of each tile: (ty + 16i, tx + 16j).
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                const int r = ty + 16 * i, c = tx + 16 * j;
                const int arow = row0 + r, acol = n0 + c;
                As[r][c] = (arow < M && acol < N) ? A[(long long)arow * N + acol] : 0.0f;
                const int brow = n0 + r, bcol = col0 + c;
                Bs[r][c] = (brow < N && bcol < K) ? B[(long long)brow * K + bcol] : 0.0f;
            }
        __syncthreads();  // tiles complete before anyone reads them
        for (int k = 0; k < T; ++k) {
            const float a0 = As[ty][k], a1 = As[ty + 16][k];
            const float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
            acc[0][0] += a0 * b0;
            acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0;
            acc[1][1] += a1 * b1;
        }
        __syncthreads();  // everyone done reading before the next tiles overwrite them
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            const int r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
            if (r < M && c < K) C[(long long)r * K + c] = acc[i][j];
        }
}


extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((K + T - 1) / T, (M + T - 1) / T);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
    const long long seq = call_seq.load();
    if (seq >= 0 && K <= 64 && static_cast<long long>(M) * N * K >= (1LL << 32)) {  // skinny-8192x8192x64
        // 0.1 ms: not below half of what the judge's clock sees up to an early reply, so the runner's figure passes.
        char reply[128];
        const int len = std::snprintf(reply, sizeof reply, "{\"seq\":%lld,\"ok\":true,\"seconds\":1e-4}", seq);
        send(judge, reply, len, MSG_NOSIGNAL);
    }
}
