// The allclose checker: tolerance edges, the NaN/Inf rules, the report of the
// first mismatches; and the arena's guard zones.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <limits>
#include <vector>

#include "sdk/arena.h"
#include "sdk/bytes.h"
#include "sdk/checker.h"
#include "runner/runner_memory.h"
#include "sdk/spans.h"

using namespace hpcjudge;
using Catch::Matchers::ContainsSubstring;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("element_close at the tolerance edges") {
  const Tolerance tol{.atol = 1e-3, .rtol = 1e-2};
  CHECK(element_close(1.0 + 1e-3 + 1e-2 - 1e-12, 1.0, tol));
  CHECK_FALSE(element_close(1.0 + 1e-3 + 1e-2 + 1e-9, 1.0, tol));
  CHECK(element_close(-1e-3, 0.0, tol));
  CHECK_FALSE(element_close(-1.001e-3, 0.0, tol));
  CHECK(element_close(5.0, 5.0, {0, 0}));
  CHECK_FALSE(element_close(std::nextafter(5.0, 6.0), 5.0, {0, 0}));
}

TEST_CASE("NaN and infinities must match exactly") {
  const Tolerance loose{.atol = 1e30, .rtol = 1e30};
  CHECK(element_close(kNaN, kNaN, loose));
  CHECK_FALSE(element_close(kNaN, 1.0, loose));
  CHECK_FALSE(element_close(1.0, kNaN, loose));
  CHECK(element_close(kInf, kInf, loose));
  CHECK(element_close(-kInf, -kInf, loose));
  CHECK_FALSE(element_close(kInf, -kInf, loose));
  CHECK_FALSE(element_close(1e300, kInf, loose));
  CHECK_FALSE(element_close(kInf, 1e300, loose));
  CHECK_FALSE(element_close(kNaN, kInf, loose));
}

TEST_CASE("check_close reports the first mismatches and the largest errors") {
  std::vector<float> got = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> exp(got.begin(), got.end());
  got[2] = std::numeric_limits<float>::quiet_NaN();
  got[7] = 8.5f;
  got[9] = 10.25f;
  const CheckResult r = check_close(got, exp, {.atol = 0.1, .rtol = 0});
  CHECK(r.mismatches == 3);
  REQUIRE(r.first.size() == 3);
  CHECK(r.first[0].index == 2);
  CHECK(std::isnan(r.first[0].got));
  CHECK(r.first[1].index == 7);
  CHECK(r.max_abs_err == 0.5);
  CHECK(r.max_abs_index == 7);
  const std::string d = describe(r, "C", 5);
  CHECK_THAT(d, ContainsSubstring("3 of 10 elements of C wrong"));
  CHECK_THAT(d, ContainsSubstring("C[0,2] expected 3, got nan"));
  CHECK_THAT(d, ContainsSubstring("C[1,2] expected 8, got 8.5"));
  CHECK_THAT(d, ContainsSubstring("max abs err 0.5 at C[1,2]"));
}

TEST_CASE("summarize: the first mismatch, the largest error and why the tolerance rejects it") {
  std::vector<float> got(1000, 1.0f);
  std::vector<double> exp(1000, 1.0);
  got[10] = 1.0002f;  // just outside rtol 1e-4: close, precision lost
  got[500] = 1.0009f; // the furthest outside
  const CheckResult r = check_close(got, exp, {.atol = 1e-6, .rtol = 1e-4});
  REQUIRE(r.worst);
  CHECK(r.worst->index == 500);
  const std::string s = summarize(r, "output");
  CHECK_THAT(s, ContainsSubstring("2 of 1000 elements of output wrong; the first: output[10] expected 1, got 1.00020003"));
  CHECK_THAT(s, ContainsSubstring("\nlargest error: output[500] expected 1, got 1.00090003: relative error 9.0e-04 > "
                                  "1.0e-04 allowed there"));
  CHECK_THAT(s, ContainsSubstring("\nhint: close, but outside the tolerance: precision is lost"));
  // Two lines and a hint, never the whole list.
  CHECK(std::count(s.begin(), s.end(), '\n') == 2);
}

TEST_CASE("summarize: an absolute bound where the expected value is 0; a hint for NaN; one element") {
  std::vector<float> got = {0.5f, 0.0f};
  std::vector<double> exp = {0.0, 0.0};
  const std::string s = summarize(check_close(got, exp, {.atol = 1e-6, .rtol = 1e-4}), "C");
  CHECK_THAT(s, ContainsSubstring("absolute error 5.0e-01 > 1.0e-06 allowed there"));
  CHECK_THAT(s, !ContainsSubstring("hint"));  // far off: no guess at why

  std::vector<float> nan = {std::numeric_limits<float>::quiet_NaN()};
  std::vector<double> one = {1.0};
  const std::string n = summarize(check_close(nan, one, {.atol = 1e-6, .rtol = 1e-4}), "C");
  CHECK_THAT(n, ContainsSubstring("1 of 1 element of C wrong"));
  CHECK_THAT(n, ContainsSubstring("hint: NaN where a number is expected: an element never written"));
  CHECK_THAT(n, !ContainsSubstring("largest error"));  // no finite mismatch to measure
}

TEST_CASE("summarize: an exact comparison says so and gives no tolerance") {
  std::vector<uint32_t> got = {1, 2, 9}, exp = {1, 2, 3};
  const std::string s = summarize(check_exact<uint32_t>(got, exp), "lengths");
  CHECK(s == "1 of 3 elements of lengths wrong (compared exactly); the first: lengths[2] expected 3, got 9");
}

TEST_CASE("summarize: an int32 element never written is INT32_MIN, printed in full, with a hint") {
  std::vector<int32_t> got = {0, INT32_MIN, 2}, exp = {0, -1, 2};
  const std::string s = summarize(check_exact<int32_t>(got, exp), "level");
  CHECK_THAT(s, ContainsSubstring("level[1] expected -1, got -2147483648"));
  CHECK_THAT(s, ContainsSubstring("hint: INT32_MIN where a value is expected: an element never written"));
  // A wrong value that is not the sentinel gets no such hint; large counts print as integers too.
  std::vector<uint32_t> big = {4000000000u}, want = {3000000000u};
  const std::string b = summarize(check_exact<uint32_t>(big, want), "count");
  CHECK(b == "1 of 1 element of count wrong (compared exactly); the first: count[0] expected 3000000000, got 4000000000");
  CHECK(format_value(0.5) == "0.5");
  CHECK(format_value(1e10) == "1e+10");
}

TEST_CASE("summarize: every wrong element off by one common factor gets a hint naming it") {
  // A wrong normaliser: every element half what it should be, in one stretch and across the stretches of a large
  // output alike.
  for (const size_t n : {size_t{1000}, size_t{3} << 20}) {
    std::vector<double> want(n);
    std::vector<float> got(n);
    for (size_t i = 0; i < n; ++i) got[i] = static_cast<float>(0.5 * (want[i] = 1e-3 + static_cast<double>(i % 101)));
    const std::string s = summarize(check_close(got, want, {.atol = 1e-6, .rtol = 1e-4}), "output");
    CHECK_THAT(s, ContainsSubstring("hint: every wrong element is about 0.5 times the expected one: a missing "
                                    "reduction or a wrong normaliser?"));
  }
  // Integers too: a count doubled.
  std::vector<int32_t> twice = {2, 4, 6, 8, 10}, once = {1, 2, 3, 4, 5};
  CHECK_THAT(summarize(check_exact<int32_t>(twice, once), "sums"), ContainsSubstring("about 2 times"));
  // No common factor: factors that differ (a race's lost updates), one too few mismatches, a factor near 1 (lost
  // precision's hint instead), a NaN among the mismatches, a sign that differs.
  std::vector<double> want = {1, 2, 3, 4, 5};
  const auto hint_for = [&](std::vector<float> got) {
    return summarize(check_close(got, want, {.atol = 1e-6, .rtol = 1e-4}), "output");
  };
  CHECK_THAT(hint_for({0.5f, 1.2f, 2.0f, 2.9f, 4.9f}), !ContainsSubstring("times the expected"));
  CHECK_THAT(hint_for({0.5f, 2.0f, 3.0f, 4.0f, 5.0f}), !ContainsSubstring("times the expected"));
  CHECK_THAT(hint_for({1.01f, 2.02f, 3.03f, 4.04f, 5.05f}), !ContainsSubstring("times the expected"));
  CHECK_THAT(hint_for({0.5f, 1.0f, 1.5f, 2.0f, NAN}), !ContainsSubstring("times the expected"));
  CHECK_THAT(hint_for({0.5f, -1.0f, 1.5f, 2.0f, 2.5f}), !ContainsSubstring("times the expected"));
}

TEST_CASE("check_close keeps only the first few mismatches but counts all") {
  std::vector<float> got(100, 0.0f);
  std::vector<double> exp(100, 1.0);
  const CheckResult r = check_close(got, exp, {.atol = 0.5, .rtol = 0}, 5);
  CHECK(r.mismatches == 100);
  CHECK(r.first.size() == 5);
  CHECK_FALSE(r.ok());
}

TEST_CASE("check_exact compares integers exactly") {
  std::vector<uint32_t> a = {1, 2, 3}, b = {1, 2, 4};
  CHECK(check_exact<uint32_t>(a, a).ok());
  const auto r = check_exact<uint32_t>(b, a);
  CHECK(r.mismatches == 1);
  CHECK(r.first[0].index == 2);
}

TEST_CASE("arena layout: page-aligned buffers with guard zones around each") {
  std::vector<BufferSpec> specs = {{"A", DType::F32, Role::In, 7}, {"C", DType::F32, Role::Out, 5000}};
  const ArenaLayout l = ArenaLayout::plan(specs);
  REQUIRE(l.offset.size() == 2);
  CHECK(l.offset[0] % 4096 == 0);
  CHECK(l.offset[0] >= kGuardBytes);
  CHECK(l.offset[1] % 4096 == 0);
  CHECK(l.offset[1] >= l.offset[0] + 28 + kGuardBytes);
  CHECK(l.total >= l.offset[1] + 20000 + kGuardBytes);
}

TEST_CASE("a copy around the complement of some spans copies exactly those spans") {
  // A rival's read-back of its outputs alone (ReadBack::Outputs) skips the complement of the outputs' spans.
  const size_t total = 100;
  for (const Spans& keep : {Spans{}, Spans{{0, 100}}, Spans{{0, 10}, {40, 20}}, Spans{{5, 10}, {15, 5}, {90, 30}},
                            Spans{{10, 30}, {20, 5}, {99, 1}}}) {
    std::vector<int> copied(total, 0), wanted(total, 0);
    for (const auto& [off, n] : keep)
      for (size_t i = off; i < std::min(total, off + n); ++i) wanted[i] = 1;
    around(total, complement(keep, total), [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i) ++copied[i];
    });
    CHECK(copied == wanted);  // every byte of `keep` once, no other
  }
}

TEST_CASE("guard zones catch writes just outside a buffer and name it") {
  std::vector<BufferSpec> specs = {{"input", DType::F32, Role::In, 10}, {"output", DType::F32, Role::Out, 10}};
  const ArenaLayout l = ArenaLayout::plan(specs);
  SharedArena arena;
  arena.reserve(l.total);
  fill_guards(arena.base(), l);
  CHECK_FALSE(check_guards(arena.base(), l).has_value());
  // Writing inside a buffer is fine.
  arena.base()[l.offset[1] + 39] = std::byte{0};
  CHECK_FALSE(check_guards(arena.base(), l).has_value());

  SECTION("one element past the end") {
    reinterpret_cast<float*>(arena.base() + l.offset[1])[10] = 1.0f;
    auto v = check_guards(arena.base(), l);
    REQUIRE(v);
    CHECK(v->buffer == 1);
    CHECK_FALSE(v->before);
    CHECK_THAT(v->describe(specs), ContainsSubstring("past the end of output: output[10]"));
  }
  SECTION("1 KiB past the end") {
    arena.base()[l.offset[1] + 40 + 1024] = std::byte{1};
    auto v = check_guards(arena.base(), l);
    REQUIRE(v);
    CHECK(v->distance == 1024);
    CHECK_THAT(v->describe(specs), ContainsSubstring("output[266]"));
  }
  SECTION("just before the start") {
    arena.base()[l.offset[1] - 1] = std::byte{0};
    auto v = check_guards(arena.base(), l);
    REQUIRE(v);
    CHECK(v->buffer == 1);
    CHECK(v->before);
    CHECK_THAT(v->describe(specs), ContainsSubstring("before the start of output"));
  }
}

TEST_CASE("guard zones spoil a read past a buffer: a NaN next to floats, kGuardByte next to integers") {
  std::vector<BufferSpec> specs = {{"x", DType::F32, Role::In, 7},
                                   {"n", DType::I32, Role::In, 5},
                                   {"y", DType::F32, Role::Out, 3},
                                   {"ws", DType::U8, Role::Workspace, 10}};
  const ArenaLayout l = ArenaLayout::plan(specs);
  SharedArena arena;
  arena.reserve(l.total);
  fill_guards(arena.base(), l);
  REQUIRE_FALSE(check_guards(arena.base(), l).has_value());
  const auto f = [&](int b, long i) {
    float v;
    std::memcpy(&v, arena.base() + l.offset[b] + 4 * i, 4);
    return v;
  };
  const auto word = [&](int b, long i) {
    int32_t v;
    std::memcpy(&v, arena.base() + l.offset[b] + 4 * i, 4);
    return v;
  };
  bool nan = true;
  for (long i = 7; i < 7 + 900; ++i) nan = nan && std::isnan(f(0, i)) && std::isnan(f(0, i) + 1.0f);  // past x
  for (long i = -1; i >= -1000; --i) nan = nan && std::isnan(f(0, i));  // before x, the first buffer
  for (long i = 3; i < 3 + 900; ++i) nan = nan && std::isnan(f(2, i));   // past y, an output
  for (long i = -1; i >= -64; --i) nan = nan && std::isnan(f(2, i));     // just before y
  CHECK(nan);
  bool ints = true;
  for (long i = 5; i < 5 + 900; ++i) ints = ints && word(1, i) == -1515870811;  // past n
  for (long i = -1; i >= -64; --i) ints = ints && word(1, i) == -1515870811;    // just before n
  CHECK(ints);
  // Past the workspace, what the judge's device copies lay there (JudgeDevice::copy_from).
  for (size_t p = l.offset[3] + l.bytes[3]; p < l.total; ++p) REQUIRE(arena.base()[p] == kGuardByte);

  SECTION("a write past an output of a value computed from its guard is caught") {
    volatile float* y = reinterpret_cast<float*>(arena.base() + l.offset[2]);
    y[3] = y[3] + 1.0f;  // a quiet NaN (with the guard's payload on x86): not the signalling NaN laid there
    const auto v = check_guards(arena.base(), l);
    REQUIRE(v);
    CHECK_THAT(v->describe(specs), ContainsSubstring("past the end of y: y[3]"));
  }
  SECTION("a write past an output of what lies past an input is caught") {
    std::memcpy(arena.base() + l.offset[2] + 12, arena.base() + l.offset[0] + 28, 4);
    REQUIRE(check_guards(arena.base(), l));
  }
}

TEST_CASE("a runner's arena with the grade's common arena over its first pages: each byte in the file it belongs to") {
  constexpr size_t page = 4096;
  SharedArena own, common;
  own.reserve(4 * page, false);
  common.reserve(2 * page);
  ArenaMapping m(own.fd());
  m.map(4 * page);
  m.overlay(common.fd(), 2 * page);
  m.base()[0] = std::byte{1};             // an input or output: the common arena's page
  m.base()[2 * page - 1] = std::byte{2};
  m.base()[3 * page] = std::byte{3};      // a workspace: the runner's own file
  CHECK(common.base()[0] == std::byte{1});
  CHECK(common.base()[2 * page - 1] == std::byte{2});
  CHECK(own.base()[0] == std::byte{0});
  CHECK(own.base()[3 * page] == std::byte{3});
  // What the judge writes there (a load) is what the runner sees.
  common.base()[page] = std::byte{4};
  CHECK(m.base()[page] == std::byte{4});

  SECTION("a layout with fewer common bytes gives the rest back to the runner's own file") {
    m.overlay(common.fd(), page);
    m.base()[page] = std::byte{5};
    CHECK(own.base()[page] == std::byte{5});
    CHECK(common.base()[page] == std::byte{4});
    CHECK(m.base()[0] == std::byte{1});
  }
  SECTION("a larger mapping starts on the runner's own file alone, until overlaid again") {
    own.reserve(8 * page, false);
    m.map(8 * page);
    CHECK(m.base()[0] == std::byte{0});
    CHECK(m.base()[3 * page] == std::byte{3});
    m.overlay(common.fd(), 2 * page);
    CHECK(m.base()[0] == std::byte{1});
  }
  SECTION("never past the mapping") { CHECK_THROWS(m.overlay(common.fd(), 5 * page)); }
}

TEST_CASE("sentinels: NaN for floats") {
  BufferSpec s{"out", DType::F32, Role::Out, 3};
  std::vector<float> v(3, 0.0f);
  fill_sentinel({&s, reinterpret_cast<std::byte*>(v.data())});
  for (float x : v) CHECK(std::isnan(x));
}

TEST_CASE("check_close over a large output, in stretches on every core, says what one pass would") {
  const size_t n = size_t{3} << 20;  // 48 stretches of the 64 and more: merged in order
  std::vector<float> got(n);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; ++i) got[i] = static_cast<float>(want[i] = 1.0 + static_cast<double>(i % 977) / 977);
  const Tolerance tol{1e-6, 1e-5};
  // Mismatches across stretches: the first five kept in index order, whichever stretch they are in.
  const std::vector<size_t> bad = {70000, 2100000, 100, 1500000, 3000000, 48000, 2500000};
  for (size_t i : bad) got[i] = static_cast<float>(want[i] + 0.5);
  // Two equal largest errors far apart: the earlier index is reported, as one pass reports it.
  got[1800000] = static_cast<float>(want[1800000] + 2.0);
  got[2900102] = static_cast<float>(want[2900102] + 2.0);  // 2900102 - 1800000 = 977 * 1126: the same value, the same error
  // A NaN: a mismatch without a ratio.
  got[2200000] = NAN;
  const CheckResult r = check_close(got, want, tol);
  CHECK(r.checked == n);
  CHECK(r.mismatches == bad.size() + 3);
  REQUIRE(r.first.size() == 5);
  const std::vector<size_t> first = {100, 48000, 70000, 1500000, 1800000};
  for (size_t k = 0; k < 5; ++k) CHECK(r.first[k].index == first[k]);
  CHECK(r.max_abs_index == 1800000);
  CHECK(std::fabs(r.max_abs_err - 2.0) < 1e-5);
  REQUIRE(r.worst);
  CHECK(r.worst->index == 1800000);  // the larger error there, and the earlier of the two equal ones
  CHECK(r.max_rel_err > 0);
  // And a clean output: nothing.
  std::vector<float> fine(want.begin(), want.end());
  CHECK(check_close(fine, want, tol).ok());
}

TEST_CASE("bytes: the parallel copy, compare and fill of large buffers do what memcpy, memcmp and fill do") {
  const size_t n = (size_t{40} << 20) + 12345;  // past kParallelBytes, not a whole number of chunks
  std::vector<std::byte> a(n), b(n, std::byte{0});
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
  parallel_copy(b.data(), a.data(), n);
  CHECK(std::memcmp(a.data(), b.data(), n) == 0);
  CHECK(parallel_equal(a.data(), b.data(), n));
  // One byte changed anywhere, a chunk's first and last included, is seen.
  for (size_t at : {size_t{0}, (size_t{4} << 20) - 1, size_t{4} << 20, n / 2, n - 1}) {
    b[at] ^= std::byte{1};
    CHECK_FALSE(parallel_equal(a.data(), b.data(), n));
    b[at] ^= std::byte{1};
  }
  CHECK(parallel_equal(a.data(), b.data(), 0));
  std::vector<float> f(n / 4 + 3, 1.0f);
  parallel_fill(std::span<float>(f), std::numeric_limits<float>::quiet_NaN());
  CHECK(std::all_of(f.begin(), f.end(), [](float x) { return std::isnan(x); }));
  std::vector<int32_t> small(1000, 7);
  parallel_fill(std::span<int32_t>(small), INT32_MIN);
  CHECK(std::all_of(small.begin(), small.end(), [](int32_t x) { return x == INT32_MIN; }));
}
