// CPU speed of light. Built with -march=native and -ffp-contract=fast (see
// CMakeLists.txt), so the FMA loops compile to this CPU's FMA instructions.
#include <omp.h>
#if defined(__SSE__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>

#include "runner/calibrate.h"

namespace hpcjudge::calibrate {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

volatile float fma_sink;

// GCC vector types of 4, 8 and 16 floats. A type wider than the CPU's registers is split, and
// with 12 chains it then spills: on an AVX2-only CPU 16-float vectors measure a tenth of the
// 8-float rate. So every width is measured and the fastest counts.
typedef float v4 __attribute__((vector_size(16)));
typedef float v8 __attribute__((vector_size(32)));
typedef float v16 __attribute__((vector_size(64)));

// 12 independent chains of a*x+b per thread: enough to cover the FMA latency on every
// core of the last decade, few enough to stay in 16 registers. Returns the flops done.
template <class V>
double fma_chains(long iterations) {
  constexpr int kChains = 12;
  constexpr int kLanes = sizeof(V) / sizeof(float);
  double flops = 0;
#pragma omp parallel reduction(+ : flops)
  {
    V acc[kChains];
    V a, b;
    for (int l = 0; l < kLanes; ++l) a[l] = 0.999999f, b[l] = 1e-7f * static_cast<float>(omp_get_thread_num() + 1);
    for (int c = 0; c < kChains; ++c) acc[c] = b * static_cast<float>(c + 1);
    for (long i = 0; i < iterations; ++i)
      for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;
    float sink = 0;
    for (int c = 0; c < kChains; ++c)
      for (int l = 0; l < kLanes; ++l) sink += acc[c][l];
    fma_sink = sink;  // keeps the chains alive
    flops += 2.0 * kLanes * kChains * static_cast<double>(iterations);
  }
  return flops;
}

// The best of `reps` runs of about the same number of flops per width, in flop/s.
template <class V>
double best_fma_rate(int reps) {
  const long iterations = (long{1} << 26) / static_cast<long>(sizeof(V) / sizeof(float));
  double best = 0;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = Clock::now();
    const double flops = fma_chains<V>(iterations);
    best = std::max(best, flops / seconds_since(t0));
  }
  return best;
}

// c = a with streaming (non-temporal) stores where the CPU has them (x86's SSE), else plain stores. c is
// 16-byte aligned (operator new's alignment) and n a multiple of 4.
void stream_copy(const float* a, float* c, size_t n) {
#pragma omp parallel
  {
#if defined(__SSE__)
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; i += 4) _mm_stream_ps(c + i, _mm_loadu_ps(a + i));
    _mm_sfence();
#else
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; ++i) c[i] = a[i];
#endif
  }
}

}  // namespace

nlohmann::json cpu(int threads) {
  omp_set_num_threads(std::max(1, threads));
  // Copy: 2 x 256 MiB, far past any last-level cache; first touch in parallel.
  const size_t n = size_t{64} << 20;
  std::unique_ptr<float[]> a(new float[n]), c(new float[n]);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = 1.0f, c[i] = 0.0f;
  // The copy with plain stores (whose lines are read before they are written) and, on x86, with
  // streaming stores (which skip that read: a CPU reference that uses them moves the same bytes
  // faster); the best of 8 runs of each, interleaved, counts: a single pass over a machine shared
  // with other work read 80.9 GB/s on the H200's host where the run before read 94.2.
  double best_copy = 1e30, best_plain = 1e30;
  for (int rep = 0; rep < 16; ++rep) {
    const auto t0 = Clock::now();
    if (rep % 2 == 0) {
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < n; ++i) c[i] = a[i];
      best_plain = std::min(best_plain, seconds_since(t0));
    } else {
      stream_copy(a.get(), c.get(), n);
    }
    best_copy = std::min(best_copy, seconds_since(t0));
  }
  const double rates[] = {best_fma_rate<v4>(3), best_fma_rate<v8>(3), best_fma_rate<v16>(3)};
  const int widest = static_cast<int>(std::max_element(std::begin(rates), std::end(rates)) - std::begin(rates));
  const double best_fma = rates[widest];
  return {{"copy_gbps", 8.0 * static_cast<double>(n) / best_copy / 1e9},
          {"copy_plain_gbps", 8.0 * static_cast<double>(n) / best_plain / 1e9},
          {"fma_gflops", best_fma / 1e9},
          {"fma_lanes", 4 << widest},
          {"threads", threads},
          {"how", "STREAM-like copy of 256 MiB (read + write), the better of plain and streaming stores, best of 8 "
                  "runs each; 12 independent FP32 FMA chains per thread, of 4, 8 "
                  "and 16 lanes, the fastest counts"}};
}

}  // namespace hpcjudge::calibrate
