// Generators: the same bytes on every run, machine and compiler (golden
// checksums pinned here; the values were the same under g++ -O0, g++ -O3 and
// clang++ -O3 -march=native), in range, and independent across seeds/streams.
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <cmath>
#include <omp.h>
#include <vector>

#include "sdk/generators.h"
#include "sdk/philox.h"

using namespace hpcjudge;

namespace {
uint64_t checksum(const std::vector<float>& v) { return gen::fnv1a(std::as_bytes(std::span(v))); }
}  // namespace

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vector") {
  // Random123's kat_vectors: philox4x32 10 rounds, counter and key all zero.
  const Philox4x32 r = philox4x32(0, 0, 0, 0, 0, 0);
  CHECK(r.v[0] == 0x6627e8d5u);
  CHECK(r.v[1] == 0xe169c58du);
  CHECK(r.v[2] == 0xbc57ac4cu);
  CHECK(r.v[3] == 0x9b00dbd8u);
  const Philox4x32 s = philox4x32(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
  CHECK(s.v[0] == 0x408f276du);
  CHECK(s.v[1] == 0x41c83b0eu);
  CHECK(s.v[2] == 0xa20bc7c6u);
  CHECK(s.v[3] == 0x6d5451fdu);
}

TEST_CASE("generators give the pinned bytes") {
  std::vector<float> v(1000);
  gen::uniform(v, 42, 7, -1, 1);
  CHECK(checksum(v) == 0x93ed1564865f029cull);
  gen::normal(v, 42, 7, 0, 1);
  CHECK(checksum(v) == 0xebf03eab66d34cb3ull);
  gen::uniform_with_spikes(v, 42, 7, -1, 1, 3, 50.0f);
  CHECK(checksum(v) == 0xc0ab81c55d531d5dull);
  // Large enough that the parallel path runs.
  std::vector<float> w(1 << 20);
  gen::uniform(w, 123456789, 3, 80, 100);
  CHECK(checksum(w) == 0x2901d4e6cf498c40ull);
}

TEST_CASE("philox_quads gives philox_bits's words on every path this CPU has, at counts that mix them") {
  std::vector<PhiloxPath> paths{PhiloxPath::Best, PhiloxPath::Scalar};
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) paths.push_back(PhiloxPath::Avx2);
  if (__builtin_cpu_supports("avx512f")) paths.push_back(PhiloxPath::Avx512);
#endif
  for (const PhiloxPath path : paths)
    for (const uint64_t first : {uint64_t{0}, uint64_t{5}, (uint64_t{1} << 32) - 3, (uint64_t{1} << 32) - 40,
                                 (uint64_t{7} << 32) + 12345})
      for (const uint64_t count : {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 43, 64, 67, 80, 127, 200}) {
        std::vector<uint32_t> got(4 * count + 1, 0xDEADBEEFu);
        philox_quads(0x123456789ABCDEFull, 11, first, count, got.data(), path);
        INFO("path " << static_cast<int>(path) << ", first " << first << ", count " << count);
        for (uint64_t k = 0; k < count; ++k) {
          const Philox4x32 want = philox_bits(0x123456789ABCDEFull, 11, first + k);
          for (int j = 0; j < 4; ++j) REQUIRE(got[4 * k + j] == want.v[j]);
        }
        CHECK(got[4 * count] == 0xDEADBEEFu);  // nothing written past the end
      }
}

TEST_CASE("generators drawing their bits in blocks give the pinned values") {
  // Pinned from the code that drew one Philox call at a time (parallel paths: sizes past 2^16).
  std::vector<int32_t> keys(3 * (1 << 16) + 5);
  gen::ascending(keys, 42, 3, -(int64_t{1} << 30), 1000, 1.25);
  CHECK(gen::fnv1a(std::as_bytes(std::span(keys))) == 0xc6e664a8af36716dull);
  std::vector<float> z(200003);
  gen::normal(z, 9, 4, 1, 2);
  CHECK(checksum(z) == 0xa7177b87e46ebc28ull);
  std::vector<int32_t> ints(100003);
  gen::integers(ints, 5, 6, -7, 1000000);
  CHECK(gen::fnv1a(std::as_bytes(std::span(ints))) == 0x8b5f42ce95559634ull);
  // Pinned from the serial loop that came first.
  std::vector<uint8_t> bytes((1 << 20) + 7);
  gen::random_bytes(bytes, 77, 5);
  CHECK(gen::fnv1a(std::as_bytes(std::span(bytes))) == 0x24dbd13421e03cf7ull);
}

TEST_CASE("byte runs give the pinned bytes, made on every core as in one pass") {
  // Pinned from the one-pass loop that came first: stretches of 2^20 bytes made in parallel, each made again
  // from the true byte before it up to where the two agree, must give the same bytes at every size, mean
  // (1: a new run at every byte; 100000: stretches without a run start) and alphabet.
  const uint8_t alphabet[] = {0x00, 0xFF, 0x7F, 0x80};
  struct Pin {
    size_t n;
    double mean;
    bool small_alphabet;
    uint32_t stream;
    uint64_t sum;
  };
  for (const Pin& p : {Pin{1, 3, false, 1, 0xaf63ba4c8601b2c6ull}, Pin{1000, 1.5, false, 2, 0x9f7ac8c767ec6eb0ull},
                       Pin{1048579, 1.5, false, 3, 0x8d6b510e283dd809ull}, Pin{4194311, 64, false, 4, 0x5603356d97a94fcfull},
                       Pin{2097153, 3, true, 5, 0xddb8b031bc1eaa8eull}, Pin{2097152, 100000, false, 6, 0xd5452850d1e9d517ull},
                       Pin{3145728, 1, false, 7, 0xfe88de38cfddff6eull}}) {
    std::vector<uint8_t> v(p.n);
    gen::byte_runs(v, 42, p.stream, p.mean,
                   p.small_alphabet ? std::span<const uint8_t>(alphabet) : std::span<const uint8_t>());
    INFO("n " << p.n << ", mean " << p.mean);
    CHECK(gen::fnv1a(std::as_bytes(std::span(v))) == p.sum);
  }
}

TEST_CASE("run bytes give the pinned bytes, made on every core as in one pass") {
  // rle-decompress's run bytes, each unlike the one before: pinned from the one-pass loop that came first.
  const uint8_t alphabet[] = {0x00, 0xFF, 0x7F};
  struct Pin {
    size_t n;
    bool small_alphabet;
    uint32_t stream;
    uint64_t sum;
  };
  for (const Pin& p : {Pin{1, false, 1, 0xaf63ba4c8601b2c6ull}, Pin{1000, false, 2, 0x5001dcbeb0f885b8ull},
                       Pin{1048579, false, 3, 0x2a99719d28cd5a74ull}, Pin{4194311, false, 4, 0xd2765ca1b0770acfull},
                       Pin{2097153, true, 5, 0x9cbf4404bd033d31ull}, Pin{2097152, false, 6, 0x6a6c5594dfe80045ull}}) {
    std::vector<uint8_t> v(p.n);
    gen::run_bytes(v, 42, p.stream, p.small_alphabet ? std::span<const uint8_t>(alphabet) : std::span<const uint8_t>());
    INFO("n " << p.n);
    CHECK(gen::fnv1a(std::as_bytes(std::span(v))) == p.sum);
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i] == v[i - 1]) FAIL("run bytes " << i - 1 << " and " << i << " are equal");
  }
}

TEST_CASE("run lengths give the pinned lengths, their bits made on every core ahead of the walk") {
  // Pinned from the one-thread walk that drew each gap's bits as it went (selection sampling); across blocks
  // of 2^20 gaps, with cuts from rare to most gaps.
  struct Pin {
    size_t runs;
    uint64_t total;
    uint64_t sum;
  };
  for (const Pin& p : {Pin{1, 1, 0xad2aca7747985764ull}, Pin{1, 5, 0x2d401a55eec16520ull}, Pin{2, 2, 0x29c7dd317360ac35ull},
                       Pin{3, 10, 0x28fb95e2bacf8585ull}, Pin{5, 5, 0xe513ec437a13fd84ull},
                       Pin{1000, 1001, 0x245640b9a42e4626ull}, Pin{1000, 1000000, 0x839774df265f11aeull},
                       Pin{100000, 150000, 0x619e89ec366e2931ull}, Pin{1048583, 2097155, 0x15fac4fab3df017aull}}) {
    std::vector<uint32_t> v(p.runs);
    gen::run_lengths(v, p.total, 42, 9);
    INFO(p.runs << " runs of " << p.total << " bytes");
    CHECK(gen::fnv1a(std::as_bytes(std::span(v))) == p.sum);
    uint64_t total = 0;
    for (uint32_t x : v) total += x;
    CHECK(total == p.total);
    CHECK(std::find(v.begin(), v.end(), 0u) == v.end());
  }
}

TEST_CASE("run lengths cut by blocks on every core: exact count and total, none empty, the same on any thread count") {
  // run_lengths takes this path past kParallelGaps gaps; here at sizes a test can afford, over several blocks.
  struct Shape {
    size_t runs;
    uint64_t total;
  };
  for (const Shape& sh : {Shape{1, 5000000}, Shape{2, 5000000}, Shape{1000, 5000000}, Shape{3333333, 5000000},
                          Shape{4999999, 5000000}, Shape{5000000, 5000000}, Shape{700000, 3145729}}) {
    INFO(sh.runs << " runs of " << sh.total << " bytes");
    std::vector<uint32_t> v(sh.runs), one(sh.runs);
    gen::run_lengths_by_blocks(v, sh.total, 42, 9);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    gen::run_lengths_by_blocks(one, sh.total, 42, 9);
    omp_set_num_threads(threads);
    CHECK(v == one);
    uint64_t total = 0;
    for (uint32_t x : v) total += x;
    CHECK(total == sh.total);
    CHECK(std::find(v.begin(), v.end(), 0u) == v.end());
    // Each block of 2^20 gaps holds about its share of the cuts (within 6 of the hypergeometric's deviations).
    const uint64_t gaps = sh.total - 1, cuts = sh.runs - 1, block = uint64_t{1} << 20;
    std::vector<uint64_t> in_block((gaps + block - 1) / block, 0);
    uint64_t at = 0;
    for (size_t k = 0; k + 1 < v.size(); ++k) in_block[((at += v[k]) - 1) >> 20]++;  // run k's cut: its last byte's gap
    for (size_t b = 0; b < in_block.size(); ++b) {
      const double n = static_cast<double>(std::min(block, gaps - b * block)), p = double(cuts) / double(gaps);
      const double sd = std::sqrt(n * p * (1 - p)) + 1;
      INFO("block " << b << ": " << in_block[b] << " cuts, " << n * p << " expected");
      CHECK(std::abs(static_cast<double>(in_block[b]) - n * p) < 6 * sd);
    }
  }
  std::vector<uint32_t> a(1000), b(1000);
  gen::run_lengths_by_blocks(a, 5000000, 42, 9);
  gen::run_lengths_by_blocks(b, 5000000, 42, 10);
  CHECK(a != b);
}

TEST_CASE("run lengths cut by blocks: the cuts are a uniformly random subset of the gaps") {
  // 2^22 bytes cut a gap in 64 (each block's cuts drawn) and two gaps in 3 (its gaps that are not cuts drawn, the
  // cuts the rest). The lengths of a uniformly random set of cuts are close to geometric: a run of 1 byte where
  // two cuts are neighbours (p, the share of gaps cut), past m bytes (1 - p)^m of them; and the cuts fall evenly
  // over each block.
  const uint64_t total = uint64_t{1} << 22, gaps = total - 1;
  for (const size_t runs : {size_t{1} << 16, size_t{2796202}}) {
    std::vector<uint32_t> v(runs);
    gen::run_lengths_by_blocks(v, total, 42, 9);
    const double p = double(runs - 1) / double(gaps), n = double(runs);
    const uint32_t m = static_cast<uint32_t>(3.0 / p);  // three means
    uint64_t sum = 0, ones = 0, past_m = 0, at = 0;
    std::vector<uint64_t> halves(2 * ((gaps + (1 << 20) - 1) >> 20), 0);
    for (size_t k = 0; k < v.size(); ++k) {
      sum += v[k];
      ones += v[k] == 1;
      past_m += v[k] > m;
      if (k + 1 < v.size()) halves[((at += v[k]) - 1) >> 19]++;  // each cut's gap: its block's first or second half
    }
    INFO(runs << " runs: " << ones << " of 1 byte, " << past_m << " past " << m << " bytes");
    CHECK(sum == total);
    CHECK(std::find(v.begin(), v.end(), 0u) == v.end());
    CHECK(std::abs(double(ones) - n * p) < 6 * std::sqrt(n * p * (1 - p)));
    const double q = std::pow(1 - p, double(m));
    CHECK(std::abs(double(past_m) - n * q) < 6 * std::sqrt(n * q) + 1);
    for (size_t h = 0; h + 1 < halves.size(); h += 2) {
      const double both = double(halves[h] + halves[h + 1]);
      INFO("block " << h / 2 << ": " << halves[h] << " and " << halves[h + 1] << " cuts in its halves");
      CHECK(std::abs(double(halves[h]) - both / 2) < 6 * std::sqrt(both / 4) + 1);
    }
    // The same whatever the number of threads, and another stream draws other cuts.
    std::vector<uint32_t> one(runs), other(runs);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    gen::run_lengths_by_blocks(one, total, 42, 9);
    omp_set_num_threads(threads);
    CHECK(v == one);
    gen::run_lengths_by_blocks(other, total, 42, 10);
    CHECK(v != other);
  }
}

TEST_CASE("bitmap paints row by row the picture of its shapes painted whole, in order") {
  // Pinned from the painter that filled each shape whole, one after the other, on one core.
  struct Pin {
    int64_t width, n;
    uint64_t seed;
    uint32_t stream;
    uint64_t sum;
  };
  for (const Pin& p : {Pin{64, 3072, 7, 3, 0x3abf935edc1f942full}, Pin{1000, 700013, 42, 9, 0x1986ff22e3dc7d05ull},
                       Pin{4096, 16777216, 1, 2, 0x0b19558185f6de2aull}, Pin{3, 10, 5, 5, 0x0d61d05027bfbb15ull},
                       Pin{0, 17, 1, 1, 0x4dfa4cffd1f7979full}}) {
    std::vector<uint8_t> v(static_cast<size_t>(p.n), 0xAB);
    gen::bitmap(v, p.width, p.seed, p.stream);
    INFO("width " << p.width << ", " << p.n << " bytes");
    CHECK(gen::fnv1a(std::as_bytes(std::span(v))) == p.sum);
  }
}

TEST_CASE("generators are deterministic and depend on seed and stream") {
  std::vector<float> a(4096), b(4096), c(4096), d(4096);
  gen::uniform(a, 1, 0, -5, 5);
  gen::uniform(b, 1, 0, -5, 5);
  gen::uniform(c, 2, 0, -5, 5);
  gen::uniform(d, 1, 1, -5, 5);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a != d);
}

TEST_CASE("uniform stays between lo and hi and covers the range") {
  std::vector<float> v(100000);
  gen::uniform(v, 9, 0, -1000, -900);
  float lo = v[0], hi = v[0];
  for (float x : v) lo = std::min(lo, x), hi = std::max(hi, x);
  CHECK(lo >= -1000.0f);
  CHECK(hi <= -900.0f);
  CHECK(lo < -999.0f);
  CHECK(hi > -901.0f);
}

TEST_CASE("normal has about zero mean and unit variance") {
  std::vector<float> v(200000);
  gen::normal(v, 3, 0, 0, 1);
  double s = 0, ss = 0;
  for (float x : v) s += x, ss += double(x) * x;
  const double mean = s / v.size(), var = ss / v.size() - mean * mean;
  CHECK(std::abs(mean) < 0.01);
  CHECK(std::abs(var - 1) < 0.02);
}

TEST_CASE("spikes land inside the buffer with the spike value") {
  std::vector<float> v(1000);
  gen::uniform_with_spikes(v, 5, 0, -1, 1, 1, 50.0f);
  CHECK(std::count(v.begin(), v.end(), 50.0f) == 1);
}
