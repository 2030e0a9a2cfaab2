// How cold a call's data is after the judge's cache flush (judge/machine/cpu_cache.h, docs/design.md "The loop"):
// one thread per allowed CPU, pinned, writes its share of a working set (as a call's threads leave their
// outputs), then, after one of the flushes below, reads its share again; the slowest thread's read is the
// round's time. Per working-set size and flush, the median of 31 rounds, in us, and as GB/s of the re-read:
//   none         nothing between: the warm figure;
//   one-thread   CacheFlusher::Reach::OneThread, the judge's: one thread writes, then reads, the buffer;
//   every-cpu    CacheFlusher::Reach::EveryCpu: every allowed CPU reads its share of the buffer, on a thread
//                pinned to it, each last-level cache instance's CPUs the whole buffer between them;
//   cold         every CPU reads 1 GiB of other memory: about as cold as the data can be made.
//   g++ -std=c++20 -O2 -pthread -I. -o flush_probe lab/flush_probe.cpp judge/machine/cpu_cache.cpp && ./flush_probe
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "judge/machine/cpu_cache.h"

namespace {

using Clock = std::chrono::steady_clock;

unsigned char* map(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  std::memset(p, 1, bytes);
  return static_cast<unsigned char*>(p);
}

std::atomic<uint64_t> sink{0};

uint64_t read_lines(const unsigned char* p, size_t bytes) {
  uint64_t s = 0;
  for (size_t i = 0; i < bytes; i += 64) s += p[i];
  return s;
}

}  // namespace

int main() {
  const std::vector<int> cpus = hpcjudge::allowed_cpus();
  const size_t n = cpus.size();
  const size_t cold_bytes = size_t{1} << 30;
  unsigned char* cold = map(cold_bytes);
  hpcjudge::CacheFlusher old(hpcjudge::CacheFlusher::Reach::OneThread);
  hpcjudge::CacheFlusher every(hpcjudge::CacheFlusher::Reach::EveryCpu);
  old.flush();
  every.flush();
  std::printf("%zu CPUs; one-thread flush %zu MiB; every-cpu flush %zu MiB on %zu threads\n", n, old.bytes() >> 20,
              every.bytes() >> 20, every.cpus());
  for (const size_t per_cpu : {size_t{256} << 10, size_t{1} << 20, size_t{4} << 20, size_t{16} << 20}) {
    const size_t total = per_cpu * n;
    unsigned char* ws = map(total);
    std::printf("working set %zu KiB per CPU (%zu MiB in all):\n", per_cpu >> 10, total >> 20);
    const char* names[] = {"none", "one-thread", "every-cpu", "cold"};
    for (int mode = 0; mode < 4; ++mode) {
      std::vector<double> rounds;
      double flush_ms = 0;
      for (int r = 0; r < 31; ++r) {
        std::vector<double> took(n);
        std::barrier sync(static_cast<std::ptrdiff_t>(n + 1));
        std::vector<std::thread> threads;
        for (size_t k = 0; k < n; ++k)
          threads.emplace_back([&, k] {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpus[k], &one);
            pthread_setaffinity_np(pthread_self(), sizeof one, &one);
            unsigned char* mine = ws + k * per_cpu;
            std::memset(mine, static_cast<unsigned char>(r), per_cpu);  // the call's outputs
            sync.arrive_and_wait();                                      // written
            sync.arrive_and_wait();                                      // flushed
            if (mode == 3) sink += read_lines(cold + k * (cold_bytes / n), cold_bytes / n), sync.arrive_and_wait();
            else sync.arrive_and_wait();
            const auto t = Clock::now();
            sink += read_lines(mine, per_cpu);
            took[k] = std::chrono::duration<double>(Clock::now() - t).count();
          });
        sync.arrive_and_wait();
        const auto f = Clock::now();
        if (mode == 1) old.flush();
        if (mode == 2) every.flush();
        flush_ms += std::chrono::duration<double, std::milli>(Clock::now() - f).count();
        sync.arrive_and_wait();
        sync.arrive_and_wait();
        for (std::thread& t : threads) t.join();
        rounds.push_back(*std::max_element(took.begin(), took.end()));
      }
      std::sort(rounds.begin(), rounds.end());
      const double med = rounds[rounds.size() / 2];
      std::printf("  %-10s re-read %8.1f us (%6.1f GB/s a CPU)%s", names[mode], med * 1e6,
                  static_cast<double>(per_cpu) / med / 1e9, mode == 1 || mode == 2 ? "" : "\n");
      if (mode == 1 || mode == 2) std::printf("  flush %.2f ms\n", flush_ms / 31);
    }
    munmap(ws, total);
  }
  return sink.load() == 42 ? 1 : 0;
}
