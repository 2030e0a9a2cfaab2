// Seeded input generators. Each fills a buffer from (seed, stream) through
// Philox and plain IEEE arithmetic in double, rounded once to float: the same
// bytes on every machine and compiler (the sdk builds with
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

// --- Bytes in runs (the run-length problems) --------------------------------
// Integer arithmetic only, so the same bytes everywhere.

// Bytes in runs whose lengths are geometric with mean `mean` (>= 1): each byte
// starts a new run with probability 1/mean, and a new run's byte differs from
// the one before, drawn from `alphabet` (all 256 values when empty; at least 2).
void byte_runs(std::span<uint8_t> out, uint64_t seed, uint32_t stream, double mean,
               std::span<const uint8_t> alphabet = {});

// Independent uniform bytes (runs happen by chance).
void random_bytes(std::span<uint8_t> out, uint64_t seed, uint32_t stream);

// Run lengths, each >= 1, summing to `total` (>= lengths.size()): the cuts are a
// uniformly random subset of the total - 1 gaps (selection sampling), so the
// lengths are close to geometric with mean total / lengths.size().
// Past kParallelGaps gaps it is run_lengths_by_blocks (on every core), below it the one walk whose
// lengths the tests pin.
void run_lengths(std::span<uint32_t> lengths, uint64_t total, uint64_t seed, uint32_t stream);
inline constexpr uint64_t kParallelGaps = uint64_t{1} << 24;

// The same on every core, for under 2^32 bytes: the gaps in blocks of 2^20, each block's number of cuts
// drawn in turn (the hypergeometric's mean and spread, as a normal, within what the gaps left can take),
// then each block's cuts a uniformly random subset of its gaps (the first distinct values of uniform draws
// among them; where cuts are more than half the gaps, of the gaps that are not cuts), all blocks at once. The
// lengths are the same whatever the number of threads, and not those of the walk.
void run_lengths_by_blocks(std::span<uint32_t> lengths, uint64_t total, uint64_t seed, uint32_t stream);

// One byte per run, each different from the one before, from `alphabet` as in byte_runs.
void run_bytes(std::span<uint8_t> bytes, uint64_t seed, uint32_t stream, std::span<const uint8_t> alphabet = {});

// A bitmap `width` pixels wide (rows of out.size() / width), row-major: a
// background with rectangles and discs in a few colours, so rows have long runs.
void bitmap(std::span<uint8_t> out, int64_t width, uint64_t seed, uint32_t stream);

// --- Integers and exact floats (the scan, merge and reduction problems) ------
// Integer arithmetic only, so the same values everywhere.

// Uniform integers in [lo, hi].
void integers(std::span<int32_t> out, uint64_t seed, uint32_t stream, int32_t lo, int32_t hi);

// Ascending integers: out[i] = first + g_0 + ... + g_i, each gap g_i 0 with probability
// 1 - 1/mean_run (so keys repeat in runs of mean length mean_run), else uniform in [1, max_gap].
// The caller keeps first + out.size() * max_gap within int32.
void ascending(std::span<int32_t> out, uint64_t seed, uint32_t stream, int64_t first, uint32_t max_gap,
               double mean_run = 1);

// Floats +-k * unit, k uniform in [1, max_multiple] and the sign uniform: never zero, and exact
// (as are all their partial sums below 2^24 units) when unit is a power of two.
void signed_multiples(std::span<float> out, uint64_t seed, uint32_t stream, uint32_t max_multiple, double unit);

// 64-bit FNV-1a of the bytes: the golden checksum the generator tests pin.
uint64_t fnv1a(std::span<const std::byte> bytes);

}  // namespace hpcjudge::gen
