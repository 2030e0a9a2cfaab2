// What the judge can see of, and do about, another process's CUDA context that keeps work on the GPU between
// its calls (docs/design.md, "Device work kept between calls (open)"). A child process (the runner) keeps, in
// turn: nothing; a grid that polls a word of device memory and sleeps between looks (a kernel left running);
// a stream memory operation waiting on that word with a kernel queued behind it (work queued behind a wait).
//   1. the parent (the judge) times each kind of small device work of its own, issued then waited for, with the
//      child's context idle and with its grid resident;
//   2. the driver's process lock (cuCheckpointProcessLock, 200 ms timeout) on the child, for each of the three,
//      with the child running and with it stopped (SIGSTOP, as the judge stops a runner between requests):
//      its result and how long it took, and how long the unlock took where it locked.
//   nvcc -O2 -arch=sm_90 -o busy_probe tools/busy_probe.cu -lcuda && ./busy_probe [rounds]
#include <cuda.h>
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe.h"

namespace {

using probe::check;
using probe::now_us;

__global__ void nothing() {}

__global__ void resident(volatile int* quit, const volatile unsigned* watched) {
  if (threadIdx.x == 0)
    while (!*quit && *watched != 0xdeadbeefu) __nanosleep(2000);
  __syncthreads();
}

using WaitValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

// The child: 'g' launches the resident grid (ack at once), 's' ends it, 'w' queues a wait and a kernel behind
// it (never released: the child is killed after), 'q' quits.
[[noreturn]] void child(int in, int out) {
  int* quit = nullptr;
  unsigned* watched = nullptr;
  check(cudaHostAlloc(&quit, sizeof(int), cudaHostAllocMapped), "child host");
  check(cudaMalloc(&watched, 4), "child malloc");
  check(cudaMemset(watched, 0, 4), "child memset");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "child stream");
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  char c = 0;
  if (write(out, &c, 1) != 1) std::exit(1);
  while (read(in, &c, 1) == 1 && c != 'q') {
    if (c == 'g') {
      *quit = 0;
      resident<<<4 * sms, 256, 0, s>>>(quit, watched);
      check(cudaGetLastError(), "child launch");
    } else if (c == 's') {
      *quit = 1;
      check(cudaStreamSynchronize(s), "child sync");
    } else if (c == 'w') {
      WaitValue32 wait = nullptr;
      cudaDriverEntryPointQueryResult q;
      cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", reinterpret_cast<void**>(&wait), 12000,
                                       cudaEnableDefault, &q);
      if (!wait || wait(reinterpret_cast<CUstream>(s), reinterpret_cast<CUdeviceptr>(watched), 0xdeadbeefu,
                        CU_STREAM_WAIT_VALUE_EQ) != CUDA_SUCCESS)
        std::exit(2);
      nothing<<<1, 1, 0, s>>>();
    }
    if (write(out, &c, 1) != 1) std::exit(1);
  }
  std::exit(0);
}

struct Kind {
  const char* name;
  int ops;  // back to back, each waited for
  int what;  // 0 memset 4 B, 1 memset 64 MiB, 2 d2d 4 KiB, 3 d2d 64 MiB, 4 h2d 4 B, 5 h2d 64 MiB, 6 empty kernel, 7 event
};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 12;
  const probe::Child kid = probe::spawn(child);
  const pid_t pid = kid.pid;
  const size_t big = size_t{64} << 20;
  char *a = nullptr, *b = nullptr, *h = nullptr;
  check(cudaMalloc(&a, big), "malloc");
  check(cudaMalloc(&b, big), "malloc");
  check(cudaMallocHost(&h, big), "host");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  cudaEvent_t e;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  const auto op = [&](int what) {
    const double t0 = now_us();
    switch (what) {
      case 0: check(cudaMemsetAsync(a, 1, 4, s), "memset"); break;
      case 1: check(cudaMemsetAsync(a, 1, big, s), "memset"); break;
      case 2: check(cudaMemcpyAsync(b, a, 4096, cudaMemcpyDeviceToDevice, s), "d2d"); break;
      case 3: check(cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice, s), "d2d"); break;
      case 4: check(cudaMemcpyAsync(a, h, 4, cudaMemcpyHostToDevice, s), "h2d"); break;
      case 5: check(cudaMemcpyAsync(a, h, big, cudaMemcpyHostToDevice, s), "h2d"); break;
      case 6: nothing<<<1, 1, 0, s>>>(); break;
      case 7: check(cudaEventRecord(e, s), "event"); break;
    }
    check(cudaStreamSynchronize(s), "sync");
    return now_us() - t0;
  };
  const std::vector<Kind> kinds = {{"memset 4 B", 1, 0},     {"memset 4 B x3", 3, 0}, {"memset 64 MiB", 1, 1},
                                   {"d2d 4 KiB", 1, 2},      {"d2d 4 KiB x3", 3, 2},  {"d2d 64 MiB", 1, 3},
                                   {"d2d 64 MiB x3", 3, 3},  {"h2d 4 B", 1, 4},       {"h2d 4 B x3", 3, 4},
                                   {"h2d 64 MiB", 1, 5},     {"empty kernel", 1, 6},  {"empty kernel x3", 3, 6},
                                   {"event", 1, 7}};
  std::printf("the parent's wait for its own device work, us (p10 / median / max of %d; xN: the slowest of N back "
              "to back)\n%-16s %28s %28s\n",
              rounds, "kind", "the child's context idle", "the child's grid resident");
  for (const Kind& k : kinds) {
    std::vector<double> took[2];
    for (int state = 0; state < 2; ++state) {
      if (state == 1) kid.ask('g');
      usleep(20000);
      for (int r = 0; r < rounds; ++r) {
        double slowest = 0;
        for (int i = 0; i < k.ops; ++i) slowest = std::max(slowest, op(k.what));
        took[state].push_back(slowest);
        usleep(2000);
      }
      if (state == 1) kid.ask('s');
    }
    std::printf("%-16s", k.name);
    for (auto& v : took) {
      std::sort(v.begin(), v.end());
      std::printf(" %8.1f / %8.1f / %8.1f", v[v.size() / 10], v[v.size() / 2], v.back());
    }
    std::printf("\n");
    std::fflush(stdout);
  }

  // 2. the driver's process lock
  std::printf("the driver's process lock on the child (timeout 200 ms): result, ms to lock, ms to unlock\n");
  const auto lock = [&](const char* state, bool stopped) {
    if (stopped) kill(pid, SIGSTOP), usleep(5000);
    CUcheckpointLockArgs args{};
    args.timeoutMs = 200;
    const double t0 = now_us();
    const CUresult r = cuCheckpointProcessLock(pid, &args);
    const double t1 = now_us();
    double unlock_ms = -1;
    if (r == CUDA_SUCCESS) {
      CUcheckpointUnlockArgs u{};
      const double t2 = now_us();
      const CUresult ru = cuCheckpointProcessUnlock(pid, &u);
      unlock_ms = ru == CUDA_SUCCESS ? (now_us() - t2) / 1e3 : -2;
    }
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::printf("  %-22s %-8s %-28s %8.2f %8.2f\n", state, stopped ? "stopped" : "running", name ? name : "?",
                (t1 - t0) / 1e3, unlock_ms);
    std::fflush(stdout);
    if (stopped) kill(pid, SIGCONT), usleep(5000);
  };
  for (int stopped = 0; stopped < 2; ++stopped) lock("idle", stopped);
  kid.ask('g');
  usleep(20000);
  for (int stopped = 0; stopped < 2; ++stopped) lock("resident grid", stopped);
  kid.ask('s');
  kid.ask('w');
  usleep(20000);
  for (int stopped = 0; stopped < 2; ++stopped) lock("queued behind a wait", stopped);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return 0;
}
