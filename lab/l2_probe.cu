// Whether a timed call can be free of the GPU's context switch (docs/design.md, "What the judge's device work
// costs"): a parent process (the judge's side) and a child (a runner, with a CUDA context of its own).
//   1. persisting: the child sets a persisting L2 set-aside and reads its buffer through an access policy window;
//      does the parent's context see the set-aside (cudaDeviceGetLimit), do the lines survive a host-copy flush,
//      and does the parent's reset (limit 0, cudaCtxResetPersistingL2Cache) clear them?
//   2. armed: the child's one-thread kernel round trip on the parent's clock after the parent's memset flush
//      (the switch), and after memset, the child's own one-thread kernel (an untimed "arm"), then a host-copy
//      flush.
//   nvcc -O2 -arch=sm_90 -o l2_probe lab/l2_probe.cu && ./l2_probe [rounds]
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

__global__ void sum(const float4* p, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.f) *out = s;
}

constexpr size_t kRead = size_t{8} << 20;  // the child's buffer: well inside the L2

// The child: 't' touch, 'w' read (untimed), 'r' read timed (replies with the µs as a float afterwards),
// 'p' set a persisting set-aside and read through a window, 'n' window off, 'q' quit.
[[noreturn]] void child(int in, int out) {
  check(cudaSetDeviceFlags(cudaDeviceScheduleSpin), "child flags");
  int* d = nullptr;
  float4* buf = nullptr;
  float* o = nullptr;
  check(cudaMalloc(&d, sizeof(int)), "child malloc");
  check(cudaMalloc(&buf, kRead), "child malloc");
  check(cudaMalloc(&o, sizeof(float)), "child malloc");
  check(cudaMemset(buf, 1, kRead), "child memset");
  cudaStream_t s;
  check(cudaStreamCreate(&s), "child stream");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  char c = 0;
  if (write(out, &c, 1) != 1) std::exit(1);
  float ms = 0;
  while (read(in, &c, 1) == 1 && c != 'q') {
    if (c == 't') {
      touch<<<1, 1, 0, s>>>(d);
    } else if (c == 'w' || c == 'r') {
      cudaEventRecord(a, s);
      sum<<<264, 512, 0, s>>>(buf, kRead / sizeof(float4), o);
      cudaEventRecord(b, s);
    } else if (c == 'p') {
      int max = 0;
      cudaDeviceGetAttribute(&max, cudaDevAttrMaxPersistingL2CacheSize, 0);
      check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max)), "set-aside");
      cudaStreamAttrValue v{};
      v.accessPolicyWindow.base_ptr = buf;
      v.accessPolicyWindow.num_bytes = kRead;
      v.accessPolicyWindow.hitRatio = 1.0f;
      v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      check(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), "window");
      sum<<<264, 512, 0, s>>>(buf, kRead / sizeof(float4), o);
    } else if (c == 'n') {
      cudaStreamAttrValue v{};
      v.accessPolicyWindow.num_bytes = 0;
      check(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), "window off");
    }
    check(cudaStreamSynchronize(s), "child sync");
    if (c == 'r') cudaEventElapsedTime(&ms, a, b);
    if (write(out, &c, 1) != 1) std::exit(1);
    if (c == 'r' && write(out, &ms, sizeof ms) != sizeof ms) std::exit(1);
  }
  std::exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 100;
  const probe::Child kid = probe::spawn(child);
  const auto timed_read = [&] {
    kid.ask('r');
    float ms = 0;
    if (read(kid.from, &ms, sizeof ms) != sizeof ms) std::exit(1);
    return 1e3 * static_cast<double>(ms);
  };

  check(cudaSetDeviceFlags(cudaDeviceScheduleSpin), "flags");
  int l2 = 0;
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "l2");
  const size_t flush = 2 * static_cast<size_t>(l2);
  void *f = nullptr, *host = nullptr;
  check(cudaMalloc(&f, flush), "malloc");
  check(cudaMallocHost(&host, flush), "host");
  std::fill(static_cast<char*>(host), static_cast<char*>(host) + flush, 7);
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  unsigned char round = 0;
  const auto memset_flush = [&] {
    check(cudaMemsetAsync(f, ++round, flush, s), "memset");
    check(cudaStreamSynchronize(s), "sync");
  };
  const auto h2d = [&](size_t n) {
    const double t0 = now_us();
    check(cudaMemcpyAsync(f, host, n, cudaMemcpyHostToDevice, s), "h2d");
    check(cudaStreamSynchronize(s), "sync");
    return now_us() - t0;
  };
  const auto reset = [&] {
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaCtxResetPersistingL2Cache();
    cudaGetLastError();
    check(cudaStreamSynchronize(s), "sync");
  };

  std::printf("L2 %d B, flush %zu B, the child's buffer %zu B, %d rounds\n", l2, flush, kRead, rounds);

  // 1. persisting
  std::printf("1. persisting lines\n");
  size_t before = 0, after = 0;
  reset();
  cudaDeviceGetLimit(&before, cudaLimitPersistingL2CacheSize);
  kid.ask('p');
  cudaDeviceGetLimit(&after, cudaLimitPersistingL2CacheSize);
  std::printf("   the parent's cudaDeviceGetLimit(persisting): %zu before the child's set-aside, %zu after\n", before,
              after);
  std::vector<double> kept, cleared, normal;
  for (int r = 0; r < rounds / 4 + 3; ++r) {
    kid.ask('p');
    h2d(flush);
    memset_flush();
    const double t1 = timed_read();
    kid.ask('p');
    reset();
    h2d(flush);
    memset_flush();
    const double t2 = timed_read();
    if (r >= 3) kept.push_back(t1), cleared.push_back(t2);
  }
  kid.ask('n');
  reset();
  for (int r = 0; r < rounds / 4 + 3; ++r) {
    kid.ask('w');
    h2d(flush);
    memset_flush();
    const double t = timed_read();
    if (r >= 3) normal.push_back(t);
  }
  const probe::Quantiles k1 = probe::quantiles(kept), k2 = probe::quantiles(cleared), k3 = probe::quantiles(normal);
  std::printf("   read after a window, then the parent's flushes: median %.1f us (p10 %.1f)\n", k1.med, k1.p10);
  std::printf("   the same with the parent's reset first:         median %.1f us (p10 %.1f)\n", k2.med, k2.p10);
  std::printf("   no window at all:                               median %.1f us (p10 %.1f)\n", k3.med, k3.p10);

  // 2. armed
  std::printf("2. the child's one-thread kernel round trip on the parent's clock (us)\n");
  std::vector<double> sw, armed, armed_up, none;
  for (int r = -5; r < rounds; ++r) {
    for (int k = 0; k < 4; ++k) {
      if (k == 0) memset_flush();
      if (k == 1 || k == 2) {
        memset_flush();
        kid.ask('t');  // the arm
        if (k == 2) h2d(flush);  // an upload before the flush
        h2d(flush);
      }
      usleep(200);
      const double t0 = now_us();
      kid.ask('t');
      const double t = now_us() - t0;
      if (r >= 0) (k == 0 ? sw : k == 1 ? armed : k == 2 ? armed_up : none).push_back(t);
    }
  }
  const char* n3[] = {"after memset (switch)", "armed, h2d flush", "armed, h2d x2", "after nothing"};
  std::vector<double>* v3[] = {&sw, &armed, &armed_up, &none};
  for (int k = 0; k < 4; ++k) {
    const probe::Quantiles q = probe::quantiles(*v3[k]);
    std::printf("   %-22s p10 %7.1f median %7.1f p90 %7.1f\n", n3[k], q.p10, q.med, q.p90);
  }
  kid.tell('q');
  waitpid(kid.pid, nullptr, 0);
  return 0;
}
