// expect: RE
// Work done between calls by a kernel left running: after a large call, a helper thread launches (once the runner
// is resumed for its untimed housekeeping, long after the runner synchronised) a grid that stays resident and
// watches the last element of C. The judge's upload of the next inputs overwrites it (C's sentinels come after A
// and B), and the grid then computes C = A + B while the judge flushes the caches, before the call. In the call,
// solve() tells the grid to end, waits for it, and returns at once where it had finished. On the H200
//, three grades: AC 112.0 each (n32M at 0.18-0.24x the fast reference's time), the judge's loads of
// the next inputs 0.45-0.51 s (n32M) and 1.5-1.7 s (n100M) a run behind the grid, against 5-17 ms without it.
// Now the judge locks the runner's CUDA processes (the driver's process lock, which waits for their submitted
// work) before it writes a call's inputs; the grid never ends, so the lock times out: RE
// (judge/isolation/device_lock.h).
// Honest twin: problems/vector-add/submissions/AC/helper-thread-stream.cu (device work launched from a helper
// thread, inside the call).
// hpcjudge-test: bench
// hpcjudge-test: message=outside its calls
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

__global__ void watch_and_add(const float* A, const float* B, float* C, long long N, unsigned old_last,
                              volatile int* quit, int* done) {
    __shared__ int go;
    if (threadIdx.x == 0) {
        go = 0;
        const volatile unsigned* last = reinterpret_cast<const volatile unsigned*>(C + N - 1);
        for (;;) {
            if (*quit) break;
            if (*last != old_last) {
                go = 1;
                break;
            }
            __nanosleep(2000);
        }
    }
    __syncthreads();
    if (!go) return;
    __threadfence_system();
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
    __syncthreads();
    __threadfence_system();
    if (threadIdx.x == 0) atomicAdd(done, 1);
}

__global__ void add(const float* A, const float* B, float* C, long long N) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
}

struct State {
    std::mutex m;
    std::condition_variable cv;
    bool pending = false;
    const float *A = nullptr, *B = nullptr;
    float* C = nullptr;
    long long N = 0;
    int *quit = nullptr, *done = nullptr;  // host-mapped
    cudaStream_t s = nullptr;
    bool running = false;
    int blocks = 0;
};
State st;

void helper() {
    for (;;) {
        std::unique_lock<std::mutex> lk(st.m);
        st.cv.wait(lk, [] { return st.pending; });
        st.pending = false;
        lk.unlock();
        // Long after the runner's synchronise and reply: the next time the process runs, in the judge's
        // housekeeping request.
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        lk.lock();
        unsigned last = 0;
        cudaMemcpy(&last, st.C + st.N - 1, 4, cudaMemcpyDeviceToHost);
        *st.quit = 0;
        *st.done = 0;
        watch_and_add<<<st.blocks, 256, 0, st.s>>>(st.A, st.B, st.C, st.N, last, st.quit, st.done);
        st.running = true;
    }
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static std::once_flag once;
    std::call_once(once, [] {
        cudaHostAlloc(&st.quit, sizeof(int), cudaHostAllocMapped);
        cudaHostAlloc(&st.done, sizeof(int), cudaHostAllocMapped);
        cudaStreamCreateWithFlags(&st.s, cudaStreamNonBlocking);
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        st.blocks = 4 * sms;
        std::thread(helper).detach();
    });
    bool finished = false;
    {
        std::lock_guard<std::mutex> lk(st.m);
        if (st.running) {
            *st.quit = 1;
            cudaStreamSynchronize(st.s);
            st.running = false;
            finished = *st.done == st.blocks && st.A == A && st.B == B && st.C == C && st.N == N;
        }
    }
    if (!finished && N > 0) add<<<1056, 256>>>(A, B, C, N);
    if (N >= (1 << 24)) {
        std::lock_guard<std::mutex> lk(st.m);
        st.A = A, st.B = B, st.C = C, st.N = N;
        st.pending = true;
        st.cv.notify_one();
    }
}
