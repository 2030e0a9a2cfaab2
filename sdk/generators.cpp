#include "sdk/generators.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "sdk/philox.h"

#include <omp.h>

namespace hpcjudge::gen {

namespace {

// 24-bit uniform in [0, 1): exact in double.
inline double unit(uint32_t bits) { return static_cast<double>(bits >> 8) * (1.0 / 16777216.0); }

// Philox calls drawn at once (philox_quads) by the loops below: 1 KiB of bits.
constexpr int64_t kQuadsAtOnce = 64;

// Calls f(i, bits) for every i < n with 32 random bits of its own, those of position first + i of the
// stream (first a multiple of 4): one Philox call serves four positions, in parallel for large n.
template <class F>
void for_each_bits(int64_t n, uint64_t seed, uint32_t stream, F f, uint64_t first = 0) {
  const int64_t quads = (n + 3) / 4, blocks = (quads + kQuadsAtOnce - 1) / kQuadsAtOnce;
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t b = 0; b < blocks; ++b) {
    uint32_t bits[4 * kQuadsAtOnce];
    const int64_t q0 = b * kQuadsAtOnce, i0 = 4 * q0, end = std::min(n, 4 * (q0 + kQuadsAtOnce));
    philox_quads(seed, stream, first / 4 + static_cast<uint64_t>(q0),
                 static_cast<uint64_t>(std::min(kQuadsAtOnce, quads - q0)), bits);
    for (int64_t i = i0; i < end; ++i) f(i, bits[i - i0]);
  }
}

// An integer uniform in [0, range) from 32 random bits (range <= 2^32).
inline uint64_t below(uint32_t bits, uint64_t range) { return (static_cast<uint64_t>(bits) * range) >> 32; }

}  // namespace

void uniform(std::span<float> out, uint64_t seed, uint32_t stream, double lo, double hi) {
  const double width = hi - lo;
  for_each_bits(static_cast<int64_t>(out.size()), seed, stream,
                [&](int64_t i, uint32_t b) { out[i] = static_cast<float>(lo + width * unit(b)); });
}

void normal(std::span<float> out, uint64_t seed, uint32_t stream, double mean, double stddev) {
  // Sum of four U(0,1) has mean 2 and variance 1/3: z = (s - 2) * sqrt(3).
  constexpr double kSqrt3 = 1.7320508075688772;
  const int64_t n = static_cast<int64_t>(out.size()), blocks = (n + kQuadsAtOnce - 1) / kQuadsAtOnce;
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t b = 0; b < blocks; ++b) {
    uint32_t bits[4 * kQuadsAtOnce];  // element i's four words: one Philox call each
    const int64_t i0 = b * kQuadsAtOnce, end = std::min(n, i0 + kQuadsAtOnce);
    philox_quads(seed, stream, static_cast<uint64_t>(i0), static_cast<uint64_t>(end - i0), bits);
    for (int64_t i = i0; i < end; ++i) {
      const uint32_t* r = bits + 4 * (i - i0);
      const double s = unit(r[0]) + unit(r[1]) + unit(r[2]) + unit(r[3]);
      const double z = (s - 2.0) * kSqrt3;
      out[i] = static_cast<float>(mean + stddev * z);
    }
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

namespace {

// 32 random bits for position i of a stream: one Philox call serves four positions, drawn kQuadsAtOnce calls at
// a time.
struct Bits {
  Bits(uint64_t s, uint32_t st) : seed(s), stream(st) {}
  uint64_t seed;
  uint32_t stream;
  uint64_t block = ~uint64_t{0};
  uint32_t bits[4 * kQuadsAtOnce];  // filled before it is read
  uint32_t operator()(uint64_t i) {
    constexpr uint64_t kPer = 4 * kQuadsAtOnce;
    if (i / kPer != block) {
      block = i / kPer;
      philox_quads(seed, stream, block * kQuadsAtOnce, kQuadsAtOnce, bits);
    }
    return bits[i % kPer];
  }
};

// A byte from the alphabet chosen by `bits`, different from `prev` (prev < 0: any).
uint8_t pick(uint32_t bits, int prev, std::span<const uint8_t> alphabet) {
  const size_t a = alphabet.empty() ? 256 : alphabet.size();
  size_t k = bits % a;
  auto at = [&](size_t j) { return alphabet.empty() ? static_cast<uint8_t>(j) : alphabet[j]; };
  if (at(k) == prev) k = (k + 1 + (bits >> 16) % (a - 1)) % a;
  return at(k);
}

}  // namespace

namespace {

// Bytes where byte i is step(bits of i, byte i - 1) (-1 before the first): on every core, the same bytes as
// one pass. Stretches of 2^20 bytes are made in parallel, each from no byte before it, then each stretch in
// order is made again from the true byte before it, up to the first byte where the two agree: from there on
// they are the same. With a few runs a stretch that is a few bytes; a stretch with no new run is made twice.
template <class Step>
void chain_bytes(std::span<uint8_t> out, uint64_t seed, uint32_t stream, Step step) {
  // Bytes [from, to) after byte `prev` (-1: none); with `agree`, stops at the first byte already so.
  auto make = [&](size_t from, size_t to, int prev, bool agree) {
    Bits bits{seed, stream};
    for (size_t i = from; i < to; ++i) {
      prev = step(bits(i), prev);
      if (agree && out[i] == static_cast<uint8_t>(prev)) return;
      out[i] = static_cast<uint8_t>(prev);
    }
  };
  constexpr size_t kStretch = size_t{1} << 20;
  const size_t n = out.size(), stretches = (n + kStretch - 1) / kStretch;
  if (stretches <= 1) return make(0, n, -1, false);
  // A byte waits on the one before, so a thread makes kChains whole stretches at once, a byte of each in turn,
  // to overlap those waits; the rest (a last, short stretch) one at a time.
  constexpr size_t kChains = 4;
  const size_t whole = n / kStretch, groups = whole / kChains;
#pragma omp parallel for schedule(static)
  for (size_t g = 0; g < groups; ++g) {
    constexpr size_t kPer = 4 * kQuadsAtOnce;  // bytes per draw of bits: kStretch is a multiple
    uint32_t bits[kChains][kPer];
    int prev[kChains] = {-1, -1, -1, -1};
    const size_t first = g * kChains * kStretch;
    for (size_t i0 = 0; i0 < kStretch; i0 += kPer) {
      for (size_t c = 0; c < kChains; ++c)
        philox_quads(seed, stream, (first + c * kStretch + i0) / 4, kQuadsAtOnce, bits[c]);
      for (size_t i = 0; i < kPer; ++i)
#pragma GCC unroll 4
        for (size_t c = 0; c < kChains; ++c) {
          prev[c] = step(bits[c][i], prev[c]);
          out[first + c * kStretch + i0 + i] = static_cast<uint8_t>(prev[c]);
        }
    }
  }
#pragma omp parallel for schedule(static)
  for (size_t k = groups * kChains; k < stretches; ++k) make(k * kStretch, std::min(n, (k + 1) * kStretch), -1, false);
  for (size_t k = 1; k < stretches; ++k) make(k * kStretch, std::min(n, (k + 1) * kStretch), out[k * kStretch - 1], true);
}

// pick() over all 256 values without a branch or a divide (the % 255 is a multiply): a value other than
// `prev`, the byte's low 8 bits, or if they equal `prev`, a step of 1-255 from them. Called from a lambda, so
// it inlines into chain_bytes's loop (through a function pointer run_bytes took 158 ms, not 84).
inline int pick256(uint32_t b, int prev) {
  const uint32_t k0 = b & 255, k1 = (k0 + 1 + (b >> 16) % 255) & 255;
  return static_cast<int>(k0) == prev ? static_cast<int>(k1) : static_cast<int>(k0);
}

}  // namespace

void byte_runs(std::span<uint8_t> out, uint64_t seed, uint32_t stream, double mean,
               std::span<const uint8_t> alphabet) {
  // A new run where the top 24 bits fall below 2^24 / mean.
  const auto threshold = static_cast<uint32_t>(16777216.0 / (mean < 1 ? 1 : mean));
  if (alphabet.empty()) {  // pick() for 256 values without a branch: at a mean of 1.5 one would miss a third
    chain_bytes(out, seed, stream, [&](uint32_t b, int prev) {
      const int k = pick256(b, prev);
      return prev < 0 || (b >> 8) < threshold ? k : prev;
    });
    return;
  }
  chain_bytes(out, seed, stream, [&](uint32_t b, int prev) {
    return prev < 0 || (b >> 8) < threshold ? static_cast<int>(pick(b, prev, alphabet)) : prev;
  });
}

void random_bytes(std::span<uint8_t> out, uint64_t seed, uint32_t stream) {
  for_each_bits(static_cast<int64_t>(out.size()), seed, stream,
                [&](int64_t i, uint32_t b) { out[i] = static_cast<uint8_t>(b >> 24); });
}

namespace {

// How many of the `needed` cuts left fall among the next `n` of the `remaining` gaps: the hypergeometric
// distribution's mean and spread, drawn as a normal (a sum of four uniforms, in exact arithmetic, so every
// machine draws the same count), within what the other gaps can still take.
uint64_t cuts_in_block(uint64_t n, uint64_t needed, uint64_t remaining, const Philox4x32& r) {
  const uint64_t lo = needed > remaining - n ? needed - (remaining - n) : 0, hi = std::min(n, needed);
  if (lo == hi) return lo;
  const double p = static_cast<double>(needed) / static_cast<double>(remaining);
  const double var = static_cast<double>(n) * p * (1 - p) * static_cast<double>(remaining - n) /
                     static_cast<double>(remaining - 1);
  const double z = (unit(r.v[0]) + unit(r.v[1]) + unit(r.v[2]) + unit(r.v[3]) - 2.0) * 1.7320508075688772;
  const double k = std::round(static_cast<double>(n) * p + std::sqrt(var) * z);
  return std::clamp(k < 0 ? uint64_t{0} : static_cast<uint64_t>(k), lo, hi);
}

// A block's `k` cuts among its `n` gaps: a uniformly random k-subset, as selection sampling's is, but from
// draws that do not wait on each other (a walk decides each gap on how many cuts are still needed, and draws a
// number for every gap: on the H200's host rle-decompress's sets took 77 ms at a cut per 64 gaps, 2^22 runs in
// 2^28 bytes). The set drawn is the first `want` distinct values of a sequence of uniform
// draws from [0, n) (uniform draws: Philox words from a counter range of the block's own, each mapped to
// [0, n) without bias by Lemire's multiply and rejection), kept in a bitmap of the block's gaps; where cuts
// are more than half the gaps it draws the gaps that are not cuts, and the cuts are the rest. Expected draws:
// n ln(n / (n - want)), at most 0.69 n. Writes to `out` the runs its cuts end, ascending: the first cut's gap
// itself (the caller subtracts the cut before the block's), then each cut's gap less the one before; returns
// the last cut's gap (-1 for none). `bitmap` is the caller's.
int64_t sampled_cuts(uint64_t from, uint64_t n, uint64_t k, uint64_t block, uint64_t seed, uint32_t stream,
                  std::vector<uint64_t>& bitmap, uint32_t* out) {
  const uint64_t words = (n + 63) / 64;
  const bool rest = 2 * k > n;  // the cuts are what is not drawn
  const uint64_t want = rest ? n - k : k;
  bitmap.assign(words, 0);
  uint32_t drawn[4 * kQuadsAtOnce];  // philox_bits's words for kQuadsAtOnce counters at a time
  uint64_t counter = (uint64_t{1} << 61) + (block << 24), used = 4 * kQuadsAtOnce;
  const auto n32 = static_cast<uint32_t>(n);
  const uint32_t reject_below = static_cast<uint32_t>(-n32) % n32;  // 2^32 mod n: the draws past the last whole n
  for (uint64_t got = 0; got < want;) {
    if (used == 4 * kQuadsAtOnce) {
      philox_quads(seed, stream, counter, kQuadsAtOnce, drawn);
      counter += kQuadsAtOnce;
      used = 0;
    }
    const uint64_t m = uint64_t{drawn[used++]} * n32;
    if (static_cast<uint32_t>(m) < reject_below) continue;
    const auto x = static_cast<uint32_t>(m >> 32);
    uint64_t& w = bitmap[x >> 6];
    const uint64_t bit = uint64_t{1} << (x & 63);
    got += (w & bit) == 0;
    w |= bit;
  }
  uint64_t i = 0, previous = 0;
  for (uint64_t j = 0; j < words; ++j) {
    const uint64_t valid = j + 1 < words || n % 64 == 0 ? ~uint64_t{0} : (uint64_t{1} << (n % 64)) - 1;
    for (uint64_t w = (rest ? ~bitmap[j] : bitmap[j]) & valid; w != 0; w &= w - 1) {
      const uint64_t gap = from + 64 * j + static_cast<uint64_t>(std::countr_zero(w));
      out[i++] = static_cast<uint32_t>(gap - previous);
      previous = gap;
    }
  }
  return k > 0 ? static_cast<int64_t>(previous) : -1;
}

}  // namespace

void run_lengths(std::span<uint32_t> lengths, uint64_t total, uint64_t seed, uint32_t stream) {
  if (lengths.empty()) return;
  // Knuth's selection sampling: gap g (between byte g and g + 1) is a cut with
  // probability needed / remaining, in exact integer arithmetic. Each decision
  // depends on the cuts before it, so the walk is serial; its random bits are
  // not: they are made on every core a block ahead of it, and the walk has no
  // branch to mispredict (a cut is about as likely as not at a mean of 1.5).
  const uint64_t gaps = total > 0 ? total - 1 : 0;
  constexpr uint64_t kBlock = uint64_t{1} << 20;  // gaps a block, a multiple of 4
  if (gaps > kParallelGaps && gaps < (uint64_t{1} << 32)) return run_lengths_by_blocks(lengths, total, seed, stream);
  uint64_t needed = lengths.size() - 1, run = 0, length = 1;
  std::vector<uint32_t> bits(static_cast<size_t>(std::min(gaps, kBlock)));
  for (uint64_t from = 0; from < gaps && needed > 0; from += kBlock) {
    const uint64_t n = std::min(kBlock, gaps - from);
    for_each_bits(static_cast<int64_t>(n), seed, stream, [&](int64_t i, uint32_t b) { bits[i] = b; }, from);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t remaining = gaps - (from + i);
      const uint64_t cut = static_cast<uint64_t>(bits[i]) * remaining < (needed << 32);
      lengths[run] = static_cast<uint32_t>(length);  // the run so far: kept once a cut ends it
      run += cut;
      needed -= cut;
      length = cut ? 1 : length + 1;
    }
  }
  // The last run takes the rest (past the last cut the walk only counted on).
  uint64_t used = 0;
  for (uint64_t k = 0; k < run; ++k) used += lengths[k];
  lengths[run] = static_cast<uint32_t>(total - used);
}

void run_lengths_by_blocks(std::span<uint32_t> lengths, uint64_t total, uint64_t seed, uint32_t stream) {
  if (lengths.empty()) return;
  const uint64_t gaps = total > 0 ? total - 1 : 0, cuts = lengths.size() - 1;
  if (gaps >= (uint64_t{1} << 32)) throw std::invalid_argument("run_lengths_by_blocks: 2^32 bytes or more");
  constexpr uint64_t kBlock = uint64_t{1} << 20;  // gaps a block, a multiple of 4
  const uint64_t blocks = (gaps + kBlock - 1) / kBlock;
  // Each block's share of the cuts, block by block (a counter of the stream past any gap's bits).
  std::vector<uint64_t> first(blocks + 1, 0);  // the index of each block's first cut
  for (uint64_t b = 0, needed = cuts, remaining = gaps; b < blocks; ++b) {
    const uint64_t n = std::min(kBlock, gaps - b * kBlock);
    const uint64_t k = cuts_in_block(n, needed, remaining, philox_bits(seed, stream, (uint64_t{1} << 62) + b));
    first[b + 1] = first[b] + k;
    needed -= k;
    remaining -= n;
  }
  // Within each block, on every core: its cuts among its gaps (sampled_cuts), the runs they end written where
  // their lengths go. On the 2-core VM (best of 3, a make test beside it) against the selection-sampling walk
  // this replaced, four blocks walked at once per thread, then the cuts' gaps turned into lengths in a pass of
  // their own: 1.8e8 runs in 2^28 bytes 339-387 ms against 446-611 ms, 2^22 runs 43-56 ms against 352-397 ms,
  // 2^24 runs in 2^27 bytes 49-76 ms against 179-209 ms.
  std::vector<int64_t> last(blocks, -1);  // each block's last cut's gap
#pragma omp parallel
  {
    std::vector<uint64_t> bitmap;  // sampled_cuts's
#pragma omp for schedule(dynamic, 4)
    for (uint64_t b = 0; b < blocks; ++b)
      last[b] = sampled_cuts(b * kBlock, std::min(kBlock, gaps - b * kBlock), first[b + 1] - first[b], b, seed, stream,
                             bitmap, lengths.data() + first[b]);
  }
  // Each block's first run starts after the cut before it (the first run at byte 0); the last run is the rest.
  int64_t before = -1;
  for (uint64_t b = 0; b < blocks; ++b)
    if (first[b + 1] > first[b]) {
      lengths[first[b]] = static_cast<uint32_t>(int64_t{lengths[first[b]]} - before);
      before = last[b];
    }
  lengths[cuts] = static_cast<uint32_t>(static_cast<int64_t>(gaps) - before);
}

void run_bytes(std::span<uint8_t> bytes, uint64_t seed, uint32_t stream, std::span<const uint8_t> alphabet) {
  if (alphabet.empty()) {  // pick() over 256 values, its divisions by constants (a multiply each, not a divide)
    chain_bytes(bytes, seed, stream, [](uint32_t b, int prev) { return pick256(b, prev); });
    return;
  }
  chain_bytes(bytes, seed, stream, [&](uint32_t b, int prev) { return static_cast<int>(pick(b, prev, alphabet)); });
}

void bitmap(std::span<uint8_t> out, int64_t width, uint64_t seed, uint32_t stream) {
  const auto n = static_cast<int64_t>(out.size());
  const int64_t height = width > 0 ? n / width : 0;
  const uint8_t palette[] = {0x00, 0xFF, 0x80, 0x3C, 0xC3, 0x11};
  // About 48 shapes, each up to a quarter of the width across, painted in order over a black background.
  struct Shape {
    int64_t cx, cy, size;
    uint8_t colour;
    bool disc;
  };
  std::vector<Shape> shapes;
  for (uint64_t s = 0; s < 48 && width > 0 && height > 0; ++s) {
    const Philox4x32 r = philox_bits(seed, stream, s);
    shapes.push_back({.cx = static_cast<int64_t>(r.v[0] % width),
                      .cy = static_cast<int64_t>(r.v[1] % height),
                      .size = 1 + static_cast<int64_t>(r.v[2] % std::max<int64_t>(1, width / 4)),
                      .colour = palette[1 + (r.v[3] >> 8) % 5],
                      .disc = (r.v[3] & 1) != 0});
  }
  // Row by row on every core: each row is the shapes that cross it, in order (the same picture as painting
  // each shape whole, in order).
  const int64_t rows = width > 0 ? (n + width - 1) / width : 0;
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t y = 0; y < rows; ++y) {
    const auto row = out.subspan(static_cast<size_t>(y * width), static_cast<size_t>(std::min(width, n - y * width)));
    std::fill(row.begin(), row.end(), uint8_t{0});
    if (y >= height) continue;  // a last, partial row stays black
    for (const Shape& sh : shapes) {
      if (y < sh.cy - sh.size || y >= sh.cy + sh.size) continue;
      int64_t half = sh.size;  // a rectangle's half width; a disc's at this row
      if (sh.disc) {
        const int64_t dy = y - sh.cy, r2 = sh.size * sh.size - dy * dy;
        half = static_cast<int64_t>(std::sqrt(static_cast<double>(r2)));  // exact for r2 < 2^52
        while (half * half > r2) --half;
        while ((half + 1) * (half + 1) <= r2) ++half;
      }
      const int64_t x0 = std::max<int64_t>(0, sh.cx - half), x1 = std::min(width, sh.cx + half);
      if (x0 < x1) std::fill(row.begin() + x0, row.begin() + x1, sh.colour);
    }
  }
  if (width <= 0) std::fill(out.begin(), out.end(), uint8_t{0});
}

void integers(std::span<int32_t> out, uint64_t seed, uint32_t stream, int32_t lo, int32_t hi) {
  const uint64_t range = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1);
  for_each_bits(static_cast<int64_t>(out.size()), seed, stream, [&](int64_t i, uint32_t b) {
    out[i] = static_cast<int32_t>(lo + static_cast<int64_t>(below(b, range)));
  });
}

void ascending(std::span<int32_t> out, uint64_t seed, uint32_t stream, int64_t first, uint32_t max_gap,
               double mean_run) {
  const int64_t n = static_cast<int64_t>(out.size());
  if (n == 0) return;
  // A gap is non-zero where the top 24 bits of a word fall below 2^24 / mean_run; its size comes
  // from the next word (words 0-1 and 2-3 of each Philox call: two gaps per call).
  const auto threshold = static_cast<uint32_t>(16777216.0 / (mean_run < 1 ? 1 : mean_run));
  const int64_t pairs = (n + 1) / 2;
  // Pass 1: each chunk's gaps and their sum, while the chunk is in cache; pass 2: the chunks scanned from
  // their offsets.
  constexpr int64_t kChunk = 1 << 16;  // even: a chunk holds whole pairs
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<int64_t> offset(static_cast<size_t>(chunks) + 1, 0);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t s = 0;
    uint32_t bits[4 * kQuadsAtOnce];
    const int64_t last = std::min(pairs, (c + 1) * kChunk / 2);
    for (int64_t p0 = c * kChunk / 2; p0 < last; p0 += kQuadsAtOnce) {
      const int64_t np = std::min(kQuadsAtOnce, last - p0);
      philox_quads(seed, stream, static_cast<uint64_t>(p0), static_cast<uint64_t>(np), bits);
      // Element 2p + k takes words 2k (step or not) and 2k + 1 (the gap) of counter p: element i of the block
      // takes words 2i and 2i + 1. A branch-free loop over whole words, which the compiler vectorises.
      const int64_t i0 = 2 * p0, m = std::min(2 * np, n - i0);
      int32_t* o = out.data() + i0;
      int64_t block_sum = 0;
      for (int64_t i = 0; i < m; ++i) {
        const uint32_t step = (bits[2 * i] >> 8) < threshold;
        const auto gap = static_cast<int32_t>(step * (1 + below(bits[2 * i + 1], max_gap)));
        o[i] = gap;
        block_sum += gap;
      }
      s += block_sum;
    }
    offset[c + 1] = s;
  }
  offset[0] = first;
  for (int64_t c = 0; c < chunks; ++c) offset[c + 1] += offset[c];
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t v = offset[c];
    for (int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) out[i] = static_cast<int32_t>(v += out[i]);
  }
}

void signed_multiples(std::span<float> out, uint64_t seed, uint32_t stream, uint32_t max_multiple, double unit) {
  // The sign without a branch (a random one is mispredicted every other value) and the multiple as a 32-bit
  // integer (max_multiple < 2^31), whose conversion to double is one instruction: on the H200's host 100M
  // values took 86-112 ms of every reduction run's inputs.
  for_each_bits(static_cast<int64_t>(out.size()), seed, stream, [&](int64_t i, uint32_t b) {
    const auto k = static_cast<int32_t>(1 + below(b << 1, max_multiple));  // bits 0-30: the multiple
    const int32_t sign = -static_cast<int32_t>(b >> 31);                    // bit 31: the sign, 0 or -1
    out[i] = static_cast<float>(static_cast<double>((k ^ sign) - sign) * unit);
  });
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
