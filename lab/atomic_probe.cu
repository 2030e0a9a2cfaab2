// What atomics on one address cost (the estimate's same-address term, judge/estimate/kernel_time.h): kernels of
// G blocks of 256 threads whose atomics all land on one word, against the same grid with no atomic and with each
// thread's atomic on a word of its own. The probe prints, per kind, the kernel's median time over 21 launches at
// several G, and the added time per atomic: (t(G) - t(G, no atomic)) / atomics at the largest G, which is where a
// serial chain at the one word shows (its slope is the per-atomic cost the model charges).
//   nvcc -O2 -arch=sm_90 -o atomic_probe lab/atomic_probe.cu && ./atomic_probe
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "probe.h"

namespace {

using probe::check;

constexpr int kThreads = 256;

enum Kind { kNone, kBlockFloat, kWarpFloat, kLaneFloat, kLaneInt, kLaneIntReturned, kLaneDistinct, kKinds };
const char* const kNames[kKinds] = {"no atomic",
                                    "one per block, float, one word",
                                    "one per warp, float, one word",
                                    "every lane, float, one word",
                                    "every lane, int, one word",
                                    "every lane, int, one word, result used",
                                    "every lane, float, a word each"};

// Each thread reads its input (as a reduction's thread would), then adds as `kind` says.
__global__ void add(Kind kind, const float* in, float* f, int* i, float* words, int* sink) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[t];
  switch (kind) {
    case kNone:
      if (v == -1.f) *f = v;
      break;
    case kBlockFloat:
      if (threadIdx.x == 0) atomicAdd(f, v);
      break;
    case kWarpFloat:
      if (threadIdx.x % 32 == 0) atomicAdd(f, v);
      break;
    case kLaneFloat:
      atomicAdd(f, v);
      break;
    case kLaneInt:
      atomicAdd(i, static_cast<int>(v));
      break;
    case kLaneIntReturned:
      if (atomicAdd(i, static_cast<int>(v)) == -7) *sink = 1;
      break;
    default:
      atomicAdd(&words[t], v);
  }
}

double atomics_of(Kind k, double blocks) {
  switch (k) {
    case kNone: return 0;
    case kBlockFloat: return blocks;
    case kWarpFloat: return blocks * kThreads / 32;
    default: return blocks * kThreads;
  }
}

float median_ms(Kind kind, int blocks, const float* in, float* f, int* i, float* words, int* sink) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  std::vector<double> ms;
  for (int r = 0; r < 22; ++r) {
    check(cudaEventRecord(a), "record");
    add<<<blocks, kThreads>>>(kind, in, f, i, words, sink);
    check(cudaEventRecord(b), "record");
    check(cudaEventSynchronize(b), "sync");
    float x = 0;
    check(cudaEventElapsedTime(&x, a, b), "elapsed");
    if (r > 0) ms.push_back(x);  // the first launch warms up
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return static_cast<float>(probe::quantiles(ms).med);
}

}  // namespace

int main() {
  const int grids[] = {1 << 10, 1 << 13, 1 << 16, 1 << 18};
  const size_t n = static_cast<size_t>(grids[3]) * kThreads;
  float *in = nullptr, *f = nullptr, *words = nullptr;
  int *i = nullptr, *sink = nullptr;
  check(cudaMalloc(&in, n * sizeof(float)), "malloc");
  check(cudaMalloc(&words, n * sizeof(float)), "malloc");
  check(cudaMalloc(&f, sizeof(float)), "malloc");
  check(cudaMalloc(&i, sizeof(int)), "malloc");
  check(cudaMalloc(&sink, sizeof(int)), "malloc");
  check(cudaMemset(in, 0, n * sizeof(float)), "memset");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "props");
  std::printf("%s, %d SMs; blocks of %d threads; median of 21 launches (ms)\n", p.name, p.multiProcessorCount, kThreads);
  std::printf("%-42s", "kind \\ blocks");
  for (int g : grids) std::printf(" %10d", g);
  std::printf("   ns per atomic at %d blocks (added over no atomic)\n", grids[3]);
  std::vector<float> none;
  for (int k = kNone; k < kKinds; ++k) {
    std::printf("%-42s", kNames[k]);
    float last = 0;
    for (int g : grids) {
      last = median_ms(static_cast<Kind>(k), g, in, f, i, words, sink);
      if (k == kNone) none.push_back(last);
      std::printf(" %10.4f", last);
    }
    const double atomics = atomics_of(static_cast<Kind>(k), grids[3]);
    if (atomics > 0) std::printf("   %.3f", 1e6 * (last - none.back()) / atomics);
    std::printf("\n");
  }
  return 0;
}
