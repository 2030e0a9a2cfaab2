#include "generators.h"

#include "philox.h"

namespace hpcjudge::gen {

namespace {
// 24-bit uniform in [0, 1): exact in double.
inline double unit(uint32_t bits) { return static_cast<double>(bits >> 8) * (1.0 / 16777216.0); }
}  // namespace

void uniform(std::span<float> out, uint64_t seed, uint32_t stream, double lo, double hi) {
  const double width = hi - lo;
  const int64_t n = static_cast<int64_t>(out.size());
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) {
    const Philox4x32 r = philox_bits(seed, stream, static_cast<uint64_t>(i));
    const double v = lo + width * unit(r.v[0]);
    out[i] = static_cast<float>(v);
  }
}

void normal(std::span<float> out, uint64_t seed, uint32_t stream, double mean, double stddev) {
  // Sum of four U(0,1) has mean 2 and variance 1/3: z = (s - 2) * sqrt(3).
  constexpr double kSqrt3 = 1.7320508075688772;
  const int64_t n = static_cast<int64_t>(out.size());
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) {
    const Philox4x32 r = philox_bits(seed, stream, static_cast<uint64_t>(i));
    const double s = unit(r.v[0]) + unit(r.v[1]) + unit(r.v[2]) + unit(r.v[3]);
    const double z = (s - 2.0) * kSqrt3;
    out[i] = static_cast<float>(mean + stddev * z);
  }
}

void uniform_with_spikes(std::span<float> out, uint64_t seed, uint32_t stream, double lo, double hi,
                         int spikes, float spike) {
  uniform(out, seed, stream, lo, hi);
  if (out.empty()) return;
  for (int s = 0; s < spikes; ++s) {
    const Philox4x32 r = philox_bits(seed, stream ^ 0x5A5A0000u, static_cast<uint64_t>(s));
    const uint64_t pos = ((static_cast<uint64_t>(r.v[1]) << 32) | r.v[0]) % out.size();
    out[pos] = spike;
  }
}

void constant(std::span<float> out, float value) {
  for (float& x : out) x = value;
}

uint64_t fnv1a(std::span<const std::byte> bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::byte b : bytes) {
    h ^= static_cast<uint64_t>(b);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace hpcjudge::gen
