// expect: MLE
// Cheat on the memory limit: forks children that each map and touch up to 0.6 times its address-space limit
// (over 1.1 times the memory limit together) and then wait, holding it. Each child stays under its own limit (RLIMIT_AS
// is per process), so no limit of one process sees the family's total. Must get MLE: the judge counts
// the memory of the runner's whole family after every call.
// hpcjudge-test: message=memory limit
// hpcjudge-test: memory-limit=1024
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {
constexpr size_t kChunk = size_t{64} << 20;
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // older headers
#endif
bool forked = false;
int ready[2] = {-1, -1};
int waiting = 0;  // children that have not said they hold their memory yet
}

extern "C" void solve(const float* input, float* output, int N) {
  if (!forked) {
    forked = true;
    if (pipe(ready) != 0) std::perror("pipe");
    rlimit space{};
    getrlimit(RLIMIT_AS, &space);
    const size_t limit = space.rlim_cur == RLIM_INFINITY ? size_t{8} << 30 : space.rlim_cur;
    // What a child may still map under its own limit: the limit less the address space it inherits.
    size_t pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%zu", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    const size_t inherited = pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t room = limit > inherited + (size_t{1} << 29) ? limit - inherited - (size_t{1} << 29) : 0;
    const size_t bytes = std::min(limit / 10 * 6, room);
    // Enough children for 1.1 times the limit together.
    const int children = bytes == 0 ? 0 : static_cast<int>(std::min<size_t>(8, (limit / 10 * 11 + bytes - 1) / bytes));
    for (int k = 0; k < children; ++k) {
      if (fork() == 0) {
        // Faulted in 64 MiB at a time by the kernel (a child stops between two of these system calls, as the
        // judge stops the family between calls), else page by page: on the 2-core VM a write to each 4 KiB page
        // took 29 s for 3 GiB, too slow to hold the memory within the functional tests' 30 s (TLE, not MLE);
        // MADV_POPULATE_WRITE (Linux 5.14) 0.9 s.
        void* q = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        volatile char* p = q == MAP_FAILED ? nullptr : static_cast<char*>(q);
        if (p)
          for (size_t at = 0; at < bytes; at += kChunk) {
            const size_t n = std::min(kChunk, bytes - at);
            if (madvise(const_cast<char*>(p) + at, n, kPopulateWrite) != 0)
              for (size_t i = at; i < at + n; i += 4096) p[i] = 1;
          }
        else
          std::perror("mmap");
        const char c = p ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1) _exit(1);
        for (;;) pause();
      }
    }
    waiting = children;
  }
  // The children map their memory while the family runs (during calls): each call waits up to 2 s for
  // them, so no one call comes near its time limit on a slow or busy machine.
  while (waiting > 0) {
    pollfd p{ready[0], POLLIN, 0};
    if (poll(&p, 1, 2000) <= 0) break;
    char c = 0;
    if (read(ready[0], &c, 1) != 1) break;
    --waiting;
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::max(m, input[i]);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
