// The parallel primitives (prefix-sum, reduction, merge): their generators keep
// their promises, and their checks admit what they must and reject what they
// must. For reduction that is the point of the problem: float emulations of the
// summation orders a GPU uses pass every test, and a dropped, doubled or
// misplaced element fails every exact test, up to N = 10^8.
#include <catch2/catch_test_macros.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "sdk/generators.h"
#include "sdk/philox.h"
#include "sdk/problem.h"
#include "sdk/verify.h"
#include "problems/families/primitives/reference.h"
#include "host_case.h"

using namespace hpcjudge;

namespace {

// The verdict of `got` as output[0] of a reduction case.
bool sum_passes(const Problem& p, const Case& c, const Expected& e, float got) {
  return element_close(got, e.outputs[0].values[0], p.tolerance(c));
}

float sequential(std::span<const float> x) {
  float s = 0;
  for (float v : x) s += v;
  return s;
}

// A pairwise tree: the two halves summed recursively (blocks of 8 sequentially at the leaves).
float pairwise(std::span<const float> x) {
  if (x.size() <= 8) return sequential(x);
  const size_t h = x.size() / 2;
  return pairwise(x.first(h)) + pairwise(x.subspan(h));
}

// A GPU-like order: `threads` threads each sum a grid-stride slice sequentially, each warp of 32 folds its lanes with
// xor shuffles (lane l takes lane l ^ o, o = 16 .. 1), and the warp sums are added by atomics in a scrambled order.
float shuffle_atomic(std::span<const float> x, size_t threads, uint64_t order_seed) {
  std::vector<float> lane(threads, 0.0f);
  for (size_t t = 0; t < threads; ++t)
    for (size_t i = t; i < x.size(); i += threads) lane[t] += x[i];
  std::vector<float> warps;
  for (size_t w = 0; w < threads; w += 32) {
    float v[32];
    for (int l = 0; l < 32; ++l) v[l] = lane[w + l];
    for (int o = 16; o > 0; o >>= 1) {
      float u[32];
      for (int l = 0; l < 32; ++l) u[l] = v[l] + v[l ^ o];
      std::copy(u, u + 32, v);
    }
    warps.push_back(v[0]);
  }
  // Atomics: the warp sums in an order drawn from the seed (Fisher-Yates with Philox).
  for (size_t i = warps.size(); i > 1; --i) {
    const size_t j = philox_bits(order_seed, 7, i).v[0] % i;
    std::swap(warps[i - 1], warps[j]);
  }
  float s = 0;
  for (float w : warps) s += w;
  return s;
}

// Kahan's compensated sum: more accurate than any plain order, never less.
float kahan(std::span<const float> x) {
  float s = 0, c = 0;
  for (float v : x) {
    const float y = v - c, t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

}  // namespace

TEST_CASE("integer generators: ranges, order, and the same values on any thread count") {
  std::vector<int32_t> x(300001), y(300001);
  gen::integers(x, 42, 1, -7, 7);
  CHECK(*std::min_element(x.begin(), x.end()) == -7);
  CHECK(*std::max_element(x.begin(), x.end()) == 7);
  gen::ascending(x, 42, 2, -1000, 5, 1.25);
  CHECK(std::is_sorted(x.begin(), x.end()));
  CHECK(x[0] >= -1000);
  CHECK(std::adjacent_find(x.begin(), x.end()) != x.end());  // some gaps are 0
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  gen::ascending(y, 42, 2, -1000, 5, 1.25);
  omp_set_num_threads(threads);
  CHECK(x == y);
  // Runs of mean length 3000 with unit steps: about n / 3000 distinct keys.
  gen::ascending(x, 42, 3, 0, 1, 3000);
  const auto keys = std::unique(x.begin(), x.end()) - x.begin();
  CHECK(keys > 50);
  CHECK(keys < 200);
  std::vector<float> f(100003);
  gen::signed_multiples(f, 42, 4, 64, 1.0 / 64);
  for (float v : f) {
    REQUIRE(v != 0);
    REQUIRE(std::abs(v) <= 1);
    REQUIRE(v * 64 == std::round(v * 64));
  }
}

TEST_CASE("prefix-sum: every input set keeps its prefixes in int32 and above the sentinel") {
  const Problem& p = *Registry::find("prefix-sum");
  for (const Case& c : p.tests()) {
    if (c["N"] > (1 << 24)) continue;  // the 2^28 test: the same generator, bound checked at 2^24 + 1
    INFO(c.name);
    HostCase h(p, c);
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());  // throws if a prefix leaves int32
    const auto* y = reinterpret_cast<const int32_t*>(e.outputs[0].exact.data());
    CHECK(std::find(y, y + c["N"], std::numeric_limits<int32_t>::min()) == y + c["N"]);
  }
}

TEST_CASE("prefix-sum: a float accumulator fails where the prefixes pass 2^24, and only there") {
  const Problem& p = *Registry::find("prefix-sum");
  for (const Case& c : p.tests()) {
    if (c.gen != "large" && c.name != "n4097") continue;
    INFO(c.name);
    HostCase h(p, c);
    const Buffers b = h.buffers();
    p.generate(c, 42, 0, b);
    const Expected e = p.reference(c, b);
    const auto x = b["input"].as<const int32_t>();
    const auto out = b["output"].as<int32_t>();
    float s = 0;
    for (size_t i = 0; i < x.size(); ++i) out[i] = static_cast<int32_t>(s += static_cast<float>(x[i]));
    CHECK(verify_outputs(p, c, b, e, 0).ok == (c.gen != "large"));
    // An exclusive scan fails everywhere.
    int64_t t = 0;
    for (size_t i = 0; i < x.size(); ++i) out[i] = static_cast<int32_t>(t), t += x[i];
    CHECK_FALSE(verify_outputs(p, c, b, e, 0).ok);
  }
}

TEST_CASE("reduction tolerance: every float order passes every test") {
  const Problem& p = *Registry::find("reduction");
  for (const Case& c : p.tests()) {
    INFO(c.name);
    HostCase h(p, c);
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());
    const auto x = h.buffers().f32("input");
    CHECK(sum_passes(p, c, e, sequential(x)));
    CHECK(sum_passes(p, c, e, pairwise(x)));
    CHECK(sum_passes(p, c, e, kahan(x)));
    CHECK(sum_passes(p, c, e, static_cast<float>(std::accumulate(x.begin(), x.end(), 0.0))));
    for (size_t threads : {32u, 4096u, 65536u})
      for (uint64_t order : {1u, 2u}) CHECK(sum_passes(p, c, e, shuffle_atomic(x, threads, order)));
  }
}

TEST_CASE("reduction tolerance: a dropped, doubled or misplaced element fails every exact test") {
  const Problem& p = *Registry::find("reduction");
  int exact = 0;
  for (const Case& c : p.tests()) {
    if (c.gen != "exact") continue;
    ++exact;
    INFO(c.name);
    HostCase h(p, c);
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());
    const auto x = h.buffers().f32("input");
    const size_t n = x.size();
    for (size_t i : {size_t{0}, n / 2, n - 1}) {
      INFO("element " << i);
      // Summed in float, sequentially, without element i, and with it twice.
      const float s = sequential(x);
      float dropped = 0;
      for (size_t k = 0; k < n; ++k)
        if (k != i) dropped += x[k];
      CHECK_FALSE(sum_passes(p, c, e, dropped));
      CHECK_FALSE(sum_passes(p, c, e, s + x[i]));
      // Misplaced: element i read where its neighbour should have been, wherever the two differ.
      const size_t j = i + 1 < n ? i + 1 : (i > 0 ? i - 1 : i);
      if (x[j] != x[i]) CHECK_FALSE(sum_passes(p, c, e, s - x[i] + x[j]));
    }
  }
  CHECK(exact >= 15);
}

TEST_CASE("reduction tolerance: half the precision, or half the array, fails the general tests") {
  const Problem& p = *Registry::find("reduction");
  for (const Case& c : p.tests()) {
    if (c.gen == "exact" || c["N"] < 1000) continue;
    INFO(c.name);
    HostCase h(p, c);
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());
    const auto x = h.buffers().f32("input");
    // An accumulator with an 11-bit significand (half precision's), rounded to nearest after every addition.
    float s = 0;
    for (float v : x) {
      int exp = 0;
      const float m = std::frexp(s + v, &exp);
      s = std::ldexp(std::nearbyint(std::ldexp(m, 11)), exp - 11);
    }
    if (c.gen != "mixed") CHECK_FALSE(sum_passes(p, c, e, s));
    CHECK_FALSE(sum_passes(p, c, e, sequential(x.first(x.size() / 2))));
  }
}

TEST_CASE("merge: the reference is std::merge, the co-rank splits it, and ties from either side agree") {
  std::vector<int32_t> a(5000), b(7001), c(12001), want(12001);
  for (uint32_t s = 0; s < 4; ++s) {
    gen::ascending(a, 42, 10 + s, -50, 3, 1 + s);  // many equal keys within and across the arrays
    gen::ascending(b, 42, 20 + s, -50, 2, 1 + s);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    reference::merge(a, b, c);
    CHECK(c == want);
    for (int64_t k : {0, 1, 17, 4999, 5000, 5001, 12000, 12001}) {
      const int64_t i = reference::co_rank(k, a, b), j = k - i;
      std::vector<int32_t> first(a.begin(), a.begin() + i);
      first.insert(first.end(), b.begin(), b.begin() + j);
      std::sort(first.begin(), first.end());
      CHECK(std::equal(first.begin(), first.end(), want.begin()));
    }
    // Ties from B first: the same array of keys.
    std::vector<int32_t> b_first(12001);
    std::merge(b.begin(), b.end(), a.begin(), a.end(), b_first.begin());
    CHECK(b_first == want);
  }
}

TEST_CASE("merge: the reference in parts on every core, four merges a part, is std::merge") {
  // Sizes past the parallel threshold; sides of very different lengths, one side before the other, equal keys.
  const std::pair<size_t, size_t> sizes[] = {{(1 << 20) + 3, 3 * (1 << 19) + 1}, {(1 << 21) + 5, 1024}, {7, 1 << 21}};
  for (const auto& [m, n] : sizes)
    for (uint32_t s = 0; s < 3; ++s) {
      std::vector<int32_t> a(m), b(n), c(m + n), want(m + n);
      if (s == 2) {  // all of a before b
        gen::ascending(a, 7, 30, -100000000, 4, 1.25);
        gen::ascending(b, 7, 31, a.back() + 1, 4, 1.25);
      } else {
        gen::ascending(a, 7, 10 + s, -1000, s == 0 ? 1000 : 2, 1.25 + 100 * s);
        gen::ascending(b, 7, 20 + s, -1000, s == 0 ? 1000 : 2, 1.25 + 100 * s);
      }
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
      reference::merge(a, b, c);
      INFO(m << " + " << n << ", pattern " << s);
      CHECK(c == want);
    }
}

TEST_CASE("merge: every generator gives ascending keys above the sentinel") {
  const Problem& p = *Registry::find("merge");
  for (const Case& c : p.tests()) {
    if (c["M"] + c["N"] > (1 << 24)) continue;
    INFO(c.name);
    HostCase h(p, c);
    const Buffers b = h.buffers();
    p.generate(c, 42, 0, b);
    for (const char* name : {"A", "B"}) {
      const auto x = b[name].as<const int32_t>();
      CHECK(std::is_sorted(x.begin(), x.end()));
      CHECK(std::find(x.begin(), x.end(), std::numeric_limits<int32_t>::min()) == x.end());
    }
  }
}

TEST_CASE("the primitives test the sizes issue 18 lists") {
  std::set<int64_t> scan;
  std::set<std::string> scan_gens;
  for (const Case& c : Registry::find("prefix-sum")->tests()) scan.insert(c["N"]), scan_gens.insert(c.gen);
  for (int64_t n : {1, 2, 3, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 1048577, 9999991, 1 << 28})
    CHECK(scan.count(n));
  for (const char* g : {"zeros", "equal", "alternating", "large"}) CHECK(scan_gens.count(g));
  std::set<int64_t> sum;
  for (const Case& c : Registry::find("reduction")->tests()) sum.insert(c["N"]);
  for (int64_t n : {1, 2, 3, 31, 32, 33, 1024, 1025, 16777217, 100000000}) CHECK(sum.count(n));
  std::set<std::pair<int64_t, int64_t>> merge;
  std::set<std::string> merge_gens;
  for (const Case& c : Registry::find("merge")->tests()) merge.insert({c["M"], c["N"]}), merge_gens.insert(c.gen);
  for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, 1000}, {1000, 0}, {1, 1}, {1, 10000000},
                                                          {10000000, 1}, {1 << 27, 1 << 27}})
    CHECK(merge.count(mn));
  for (const char* g : {"duplicates", "interleaved", "a-first", "b-first", "runs", "extremes"}) CHECK(merge_gens.count(g));
}
