// CPU speed of light. Built with -march=native and -ffp-contract=fast (see
// CMakeLists.txt), so the FMA loop compiles to this CPU's widest FMA.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "calibrate.h"

namespace hpcjudge::calibrate {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

volatile float fma_sink;

// 16 floats; GCC splits it into the CPU's vector registers.
typedef float v16 __attribute__((vector_size(64)));

// 12 independent chains of a*x+b per thread: enough to cover the FMA latency
// on every core of the last decade. Returns the flops done.
double fma_chains(long iterations) {
  constexpr int kChains = 12;
  double flops = 0;
#pragma omp parallel reduction(+ : flops)
  {
    v16 acc[kChains];
    v16 a, b;
    for (int l = 0; l < 16; ++l) a[l] = 0.999999f, b[l] = 1e-7f * static_cast<float>(omp_get_thread_num() + 1);
    for (int c = 0; c < kChains; ++c) acc[c] = b * static_cast<float>(c + 1);
    for (long i = 0; i < iterations; ++i)
      for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;
    float sink = 0;
    for (int c = 0; c < kChains; ++c)
      for (int l = 0; l < 16; ++l) sink += acc[c][l];
    fma_sink = sink;  // keeps the chains alive
    flops += 2.0 * 16 * kChains * static_cast<double>(iterations);
  }
  return flops;
}

}  // namespace

nlohmann::json cpu(int threads) {
  omp_set_num_threads(std::max(1, threads));
  // Copy: 2 x 256 MiB, far past any last-level cache; first touch in parallel.
  const size_t n = size_t{64} << 20;
  std::unique_ptr<float[]> a(new float[n]), c(new float[n]);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = 1.0f, c[i] = 0.0f;
  double best_copy = 1e30;
  for (int rep = 0; rep < 6; ++rep) {
    const auto t0 = Clock::now();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) c[i] = a[i];
    best_copy = std::min(best_copy, seconds_since(t0));
  }
  double best_fma = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = Clock::now();
    const double flops = fma_chains(1 << 22);
    best_fma = std::max(best_fma, flops / seconds_since(t0));
  }
  return {{"copy_gbps", 8.0 * static_cast<double>(n) / best_copy / 1e9},
          {"fma_gflops", best_fma / 1e9},
          {"threads", threads},
          {"how", "STREAM-like copy of 256 MiB (read + write); 12 independent FP32 FMA chains of 16 lanes per thread"}};
}

}  // namespace hpcjudge::calibrate
