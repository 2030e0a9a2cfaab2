// What the judge's own device work before a timed call costs the call: a parent process (the judge's side)
// does one kind of device work in its CUDA context and synchronises, then asks a child process (a runner, with
// a context of its own) for a one-thread kernel, synchronised, and times the round trip on its clock. The kinds
// are taken in turn, round after round, so that drift spreads over all of them alike.
//   nvcc -O2 -arch=sm_90 -o switch_probe lab/switch_probe.cu && ./switch_probe [rounds]
// Prints, per kind, the round trip's 10th percentile, median and 90th percentile in µs.
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe.h"

namespace {

using probe::check;
using probe::now_us;

__global__ void touch(int* p) { *p += 1; }

__global__ void fill(unsigned* p, size_t n, unsigned v) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) p[i] = v;
}

// The runner's side: a kernel and a synchronise per byte read, a byte written back.
[[noreturn]] void child(int in, int out) {
  check(cudaSetDeviceFlags(cudaDeviceScheduleSpin), "child flags");
  int* d = nullptr;
  check(cudaMalloc(&d, sizeof(int)), "child malloc");
  char c = 0;
  if (write(out, &c, 1) != 1) std::exit(1);  // ready
  while (read(in, &c, 1) == 1 && c != 'q') {
    touch<<<1, 1>>>(d);
    check(cudaDeviceSynchronize(), "child sync");
    if (write(out, &c, 1) != 1) std::exit(1);
  }
  std::exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  const probe::Child kid = probe::spawn(child);

  check(cudaSetDeviceFlags(cudaDeviceScheduleSpin), "flags");
  int l2 = 0;
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "l2");
  const size_t flush = 2 * static_cast<size_t>(l2), upload = size_t{64} << 20;
  unsigned *f = nullptr, *g = nullptr;
  void* host = nullptr;
  check(cudaMalloc(&f, flush), "malloc");
  check(cudaMalloc(&g, flush), "malloc");
  check(cudaMallocHost(&host, upload), "host");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  cudaEvent_t e;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  unsigned char round = 0;
  struct Kind {
    const char* name;
    void (*work)(unsigned*, unsigned*, size_t, void*, size_t, cudaStream_t, cudaEvent_t, unsigned char);
  };
  const std::vector<Kind> kinds = {
      {"nothing", [](unsigned*, unsigned*, size_t, void*, size_t, cudaStream_t, cudaEvent_t, unsigned char) {}},
      {"event", [](unsigned*, unsigned*, size_t, void*, size_t, cudaStream_t s, cudaEvent_t e, unsigned char) {
         check(cudaEventRecord(e, s), "record");
       }},
      {"memset-4B", [](unsigned* f, unsigned*, size_t, void*, size_t, cudaStream_t s, cudaEvent_t, unsigned char r) {
         check(cudaMemsetAsync(f, r, 4, s), "memset");
       }},
      {"memset-2xL2", [](unsigned* f, unsigned*, size_t n, void*, size_t, cudaStream_t s, cudaEvent_t, unsigned char r) {
         check(cudaMemsetAsync(f, r, n, s), "memset");
       }},
      {"d2d-2xL2", [](unsigned* f, unsigned* g, size_t n, void*, size_t, cudaStream_t s, cudaEvent_t, unsigned char) {
         check(cudaMemcpyAsync(g, f, n, cudaMemcpyDeviceToDevice, s), "d2d");
       }},
      {"kernel-2xL2", [](unsigned* f, unsigned*, size_t n, void*, size_t, cudaStream_t s, cudaEvent_t, unsigned char r) {
         fill<<<1024, 256, 0, s>>>(f, n / 4, r);
       }},
      {"h2d-64MiB", [](unsigned* f, unsigned*, size_t, void* h, size_t up, cudaStream_t s, cudaEvent_t, unsigned char) {
         check(cudaMemcpyAsync(f, h, up, cudaMemcpyHostToDevice, s), "h2d");
       }},
      {"persist-reset", [](unsigned*, unsigned*, size_t, void*, size_t, cudaStream_t, cudaEvent_t, unsigned char) {
         cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
         cudaCtxResetPersistingL2Cache();
         cudaGetLastError();
       }},
      {"limit-query", [](unsigned*, unsigned*, size_t, void*, size_t, cudaStream_t, cudaEvent_t, unsigned char) {
         size_t v = 0;
         cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize);
       }},
      {"judge-flush", [](unsigned* f, unsigned*, size_t n, void*, size_t, cudaStream_t s, cudaEvent_t, unsigned char r) {
         cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
         cudaCtxResetPersistingL2Cache();
         cudaGetLastError();
         check(cudaMemsetAsync(f, r, n, s), "memset");
       }},
  };
  std::vector<std::vector<double>> took(kinds.size());
  for (int r = -5; r < rounds; ++r)
    for (size_t k = 0; k < kinds.size(); ++k) {
      kinds[k].work(f, g, flush, host, upload, s, e, ++round);
      check(cudaStreamSynchronize(s), "sync");
      check(cudaDeviceSynchronize(), "device sync");
      usleep(200);
      const double t0 = now_us();
      kid.ask('p');
      if (r >= 0) took[k].push_back(now_us() - t0);
    }
  kid.tell('q');
  waitpid(kid.pid, nullptr, 0);
  std::printf("L2 %d B, flush %zu B, %d rounds; the child's one-thread kernel round trip after the parent's work, us\n",
              l2, flush, rounds);
  std::printf("%-14s %8s %8s %8s\n", "parent did", "p10", "median", "p90");
  for (size_t k = 0; k < kinds.size(); ++k) {
    const probe::Quantiles q = probe::quantiles(took[k]);
    std::printf("%-14s %8.1f %8.1f %8.1f\n", kinds[k].name, q.p10, q.med, q.p90);
  }
  return 0;
}
