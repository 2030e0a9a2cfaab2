// Seeded input generators. Each fills a buffer from (seed, stream) through
// Philox and plain IEEE arithmetic in double, rounded once to float: the same
// bytes on every machine and compiler (the harness builds with
// -ffp-contract=off; no <random> distributions, whose output differs between
// standard libraries, and no libm calls, whose last bits differ too).
#pragma once
#include <cstdint>
#include <span>

namespace hpcjudge::gen {

// Uniform in [lo, hi).
void uniform(std::span<float> out, uint64_t seed, uint32_t stream, double lo, double hi);

// Approximately normal (Irwin-Hall sum of four uniforms, scaled to unit variance),
// mean + stddev * z with |z| < 2*sqrt(3).
void normal(std::span<float> out, uint64_t seed, uint32_t stream, double mean, double stddev);

// Uniform in [lo, hi), and at `spikes` positions picked by the seed, the value `spike`.
void uniform_with_spikes(std::span<float> out, uint64_t seed, uint32_t stream, double lo, double hi,
                         int spikes, float spike);

// Every element equal to `value`.
void constant(std::span<float> out, float value);

// 64-bit FNV-1a of the bytes: the golden checksum the generator tests pin.
uint64_t fnv1a(std::span<const std::byte> bytes);

}  // namespace hpcjudge::gen
