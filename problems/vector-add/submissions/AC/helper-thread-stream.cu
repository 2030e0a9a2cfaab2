// Vector add launched by a helper thread on a non-blocking stream of its own: solve() hands the launch to the
// thread and returns once it is enqueued, without synchronising. Must get AC: work launched from another thread,
// inside the call, is the call's (the judge synchronises the whole device after solve), and a helper thread that
// launches nothing between calls leaves the GPU idle there. The honest twin of
// cheat/kernel-left-running.cu and cheat/work-queued-behind-a-wait.cu; on the H200 AC 100.3 and 97.2.
// hpcjudge-test: bench
#include <condition_variable>
#include <mutex>
#include <thread>

namespace {

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, long long N) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
}

struct Launcher {
    std::mutex m;
    std::condition_variable cv;
    const float *A = nullptr, *B = nullptr;
    float* C = nullptr;
    long long N = 0;
    bool asked = false, enqueued = false;
    cudaStream_t stream = nullptr;

    void serve() {
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        for (;;) {
            std::unique_lock<std::mutex> lk(m);
            cv.wait(lk, [this] { return asked; });
            asked = false;
            add<<<1056, 256, 0, stream>>>(A, B, C, N);
            enqueued = true;
            cv.notify_all();
        }
    }
};

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static Launcher* l = [] {
        auto* made = new Launcher;
        std::thread([made] { made->serve(); }).detach();
        return made;
    }();
    std::unique_lock<std::mutex> lk(l->m);
    l->A = A, l->B = B, l->C = C, l->N = N;
    l->asked = true;
    l->enqueued = false;
    l->cv.notify_all();
    l->cv.wait(lk, [] { return l->enqueued; });
}
