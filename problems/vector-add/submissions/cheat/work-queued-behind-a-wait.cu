// expect: RE
// Work queued between calls behind a wait on device memory: after a large call, a helper thread enqueues (once
// the runner is resumed for its untimed housekeeping, long after the runner synchronised), on a stream of its
// own, a stream memory operation that waits until the last element of C changes, then the kernel C = A + B,
// then a flag. Nothing runs while it waits. The judge's upload of the next inputs overwrites C's last element,
// and the queued kernel computes the outputs before the call; the call only checks the flag. Only calls of
// 2^25 to 2^26 elements (the n32M case, the last one timed): a wait queued on an address that the next upload
// does not write (another case's layout) would never end, and the runner's synchronise would wait with it.
// On the H200: AC 112.0 (n32M at 0.24x the fast reference's time), and nothing of the judge's
// waited longer for it (its loads 9-17 ms a run, as without it): while it waits, nothing of it runs.
// Now the judge locks the runner's CUDA processes before it writes a call's inputs, and the lock waits for work
// submitted, queued work too: the wait never ends before the upload, so the lock times out: RE. Judged in the
// sandbox (bubblewrap: the runner in a PID namespace of its own), where the judge locks it by its outer pid.
// Honest twin: problems/vector-add/submissions/AC/helper-thread-stream.cu.
// hpcjudge-test: bench
// hpcjudge-test: message=outside its calls
// hpcjudge-test: args=--sandbox
#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace {

__global__ void add(const float* A, const float* B, float* C, long long N) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
}

__global__ void mark(volatile int* done, int epoch) {
    __threadfence_system();
    *done = epoch;
}

using WaitValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

struct State {
    std::mutex m;
    std::condition_variable cv;
    bool pending = false, queued = false;
    const float *A = nullptr, *B = nullptr;
    float* C = nullptr;
    long long N = 0;
    int* done = nullptr;  // host-mapped
    int epoch = 0;
    cudaStream_t s = nullptr;
    WaitValue32 wait = nullptr;
};
State st;

void helper() {
    for (;;) {
        std::unique_lock<std::mutex> lk(st.m);
        st.cv.wait(lk, [] { return st.pending; });
        st.pending = false;
        lk.unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(3));  // the next time the process runs
        lk.lock();
        unsigned last = 0;
        cudaMemcpy(&last, st.C + st.N - 1, 4, cudaMemcpyDeviceToHost);
        ++st.epoch;
        // Until some bit set in the last output is clear: ~(*C[N-1] | ~last) != 0.
        st.wait(reinterpret_cast<CUstream>(st.s), reinterpret_cast<CUdeviceptr>(st.C + st.N - 1), ~last,
                CU_STREAM_WAIT_VALUE_NOR);
        add<<<1056, 256, 0, st.s>>>(st.A, st.B, st.C, st.N);
        mark<<<1, 1, 0, st.s>>>(st.done, st.epoch);
        st.queued = true;
    }
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static std::once_flag once;
    std::call_once(once, [] {
        cudaHostAlloc(&st.done, sizeof(int), cudaHostAllocMapped);
        cudaStreamCreateWithFlags(&st.s, cudaStreamNonBlocking);
        cudaDriverEntryPointQueryResult q;
        cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", reinterpret_cast<void**>(&st.wait), 12000, cudaEnableDefault, &q);
        std::thread(helper).detach();
    });
    bool finished = false;
    {
        std::lock_guard<std::mutex> lk(st.m);
        if (st.queued) {
            finished = *static_cast<volatile int*>(st.done) == st.epoch && st.A == A && st.B == B && st.C == C &&
                       st.N == N;
            cudaStreamSynchronize(st.s);  // released by the upload before every timed call
            st.queued = false;
        }
    }
    if (!finished && N > 0) add<<<1056, 256>>>(A, B, C, N);
    if (N >= (1 << 25) && N < (1 << 26) && st.wait) {
        std::lock_guard<std::mutex> lk(st.m);
        st.A = A, st.B = B, st.C = C, st.N = N;
        st.pending = true;
        st.cv.notify_one();
    }
}
