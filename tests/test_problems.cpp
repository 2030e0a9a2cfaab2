// Every registered problem, through its own description: the sizes docs/design.md
// asks for are tested, an all-zero output fails every test, and each
// tolerance admits what it must and rejects what it must.
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "sdk/verify.h"
#include "judge/verdicts/memory_limit.h"
#include "problems/families/matmul/reference.h"
#include "problems/families/softmax/reference.h"
#include "host_case.h"
#include "tf32.h"

using namespace hpcjudge;

namespace {

}  // namespace

TEST_CASE("the registry holds the CPU problems") {
  REQUIRE(Registry::find("softmax-cpu"));
  REQUIRE(Registry::find("matmul-cpu"));
  CHECK(Registry::find("no-such-problem") == nullptr);
}

TEST_CASE("every problem's description is complete") {
  for (const Problem* p : Registry::all()) {
    INFO(p->info().slug);
    CHECK_FALSE(p->info().title.empty());
    CHECK_FALSE(p->info().tolerance_why.empty());
    CHECK(p->info().points.total() > 0);
    CHECK_FALSE(p->tests().empty());
    CHECK_FALSE(p->benchmarks().empty());
    std::set<std::string> names;
    for (const Case& c : p->tests()) CHECK(names.insert(c.name).second);
    for (const Case& c : p->benchmarks()) {
      CHECK(names.insert(c.name).second);
      const Model m = p->model(c);
      CHECK((m.bytes > 0 || m.flops > 0));
    }
    // make bench's bars name cases that exist, against an anchor it knows, and a vendor bar only where a vendor
    // anchor is there to be timed.
    const bool has_vendor = std::filesystem::exists(std::filesystem::path(HPCJUDGE_SOURCE_DIR) / "problems" /
                                                    p->info().slug / "solutions" /
                                                    ("vendor." + p->info().source_ext));
    for (const BenchTarget& t : p->info().bench_targets) {
      INFO(t.anchor << " " << t.on);
      CHECK((t.anchor == "peak" || (t.anchor == "vendor" && has_vendor)));
      CHECK(t.at_least > 0);
      const auto& b = p->benchmarks();
      CHECK((t.on == "*" || t.on == "largest" ||
             std::any_of(b.begin(), b.end(), [&](const Case& c) { return c.name == t.on; })));
    }
  }
}

TEST_CASE("an all-zero output fails every test of every problem") {
  for (const Problem* p : Registry::all()) {
    for (const Case& c : p->tests()) {
      INFO(p->info().slug << " " << c.name);
      HostCase h(*p, c);
      p->generate_case(c, 42, h.buffers());
      p->generate(c, 42, 0, h.buffers());
      const Expected e = p->reference(c, h.buffers());
      if (e.ret == 0) continue;  // an empty run-length code: nothing to get wrong
      // An empty merge has no element to get wrong, and an all-zero scan's right answer is all zero.
      bool nonzero = false;
      for (const ExpectedOutput& o : e.outputs) {
        nonzero = nonzero || std::any_of(o.values.begin(), o.values.end(), [](double v) { return v != 0; });
        nonzero = nonzero || std::any_of(o.exact.begin(), o.exact.end(), [](std::byte v) { return v != std::byte{0}; });
      }
      if (!nonzero) continue;
      const Buffers bufs = h.buffers();  // named: a range-for over a temporary's member would dangle
      for (const BufferView& v : bufs.all())
        if (v.spec->role == Role::Out) std::memset(v.data, 0, v.spec->bytes());
      CHECK_FALSE(verify_outputs(*p, c, bufs, e, 0).ok);
    }
  }
}

TEST_CASE("softmax-cpu tests the sizes and inputs docs/design.md lists") {
  std::set<int64_t> sizes;
  std::set<std::string> gens;
  for (const Case& c : Registry::find("softmax-cpu")->tests()) sizes.insert(c["N"]), gens.insert(c.gen);
  for (int64_t n : {1, 2, 3, 4, 5, 7, 31, 32, 33, 1000, 65537, 1 << 20, 1000003}) CHECK(sizes.count(n));
  for (const char* g : {"equal", "large", "negative", "spike", "wide"}) CHECK(gens.count(g));
}

TEST_CASE("softmax tolerance: careful float passes and the classic bugs fail") {
  const Problem& p = *Registry::find("softmax-cpu");
  for (const Case& c : p.tests()) {
    INFO(c.name);
    HostCase h(p, c);
    p.generate_case(c, 42, h.buffers());
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());
    const auto x = h.buffers().f32("input");
    const size_t n = x.size();
    float m = x[0];
    for (float v : x) m = std::max(m, v);
    // All in float, summed in float blocks of 1024: a careful FP32 solution.
    float s = 0;
    for (size_t b = 0; b < n; b += 1024) {
      float part = 0;
      for (size_t i = b; i < std::min(n, b + 1024); ++i) part += std::exp(x[i] - m);
      s += part;
    }
    std::vector<float> y(n);
    for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m) / s;
    CHECK(check_close(y, e.outputs[0].values, p.tolerance(c)).ok());
    // One float accumulator over all N terms drifts (small terms rounded away).
    if (n >= (1u << 20)) {
      float t = 0;
      for (float v : x) t += std::exp(v - m);
      for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m) / t;
      CHECK_FALSE(check_close(y, e.outputs[0].values, p.tolerance(c)).ok());
    }
    // Without the max subtraction: inf/inf or 0/0.
    if (c.gen == "large" || c.gen == "negative" || c.gen == "equal-large") {
      float t = 0;
      for (float v : x) t += std::exp(v);
      for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]) / t;
      CHECK_FALSE(check_close(y, e.outputs[0].values, p.tolerance(c)).ok());
    }
  }
}

TEST_CASE("matmul tolerance admits FP32 in any order and rejects TF32 inputs") {
  const Problem& p = *Registry::find("matmul-cpu");
  for (int n : {1, 3, 64, 2048, 8192}) {
    INFO("inner dimension N = " << n);
    const int m = 24, k = 24;
    const Case c{"t", {{"M", m}, {"N", n}, {"K", k}}};
    HostCase h(p, c);
    p.generate_case(c, 42, h.buffers());
    p.generate(c, 42, 0, h.buffers());
    const Expected e = p.reference(c, h.buffers());
    const auto A = h.buffers().f32("A"), B = h.buffers().f32("B");
    std::vector<float> seq(m * k), rev(m * k), tf32(m * k);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < k; ++j) {
        float s = 0, r = 0, t = 0;
        for (int q = 0; q < n; ++q) s += A[i * n + q] * B[q * k + j];
        for (int q = n - 1; q >= 0; --q) r = std::fma(A[i * n + q], B[q * k + j], r);
        for (int q = 0; q < n; ++q) t += to_tf32(A[i * n + q]) * to_tf32(B[q * k + j]);
        seq[i * k + j] = s, rev[i * k + j] = r, tf32[i * k + j] = t;
      }
    CHECK(check_close(seq, e.outputs[0].values, p.tolerance(c)).ok());
    CHECK(check_close(rev, e.outputs[0].values, p.tolerance(c)).ok());
    const CheckResult bad = check_close(tf32, e.outputs[0].values, p.tolerance(c));
    CHECK(bad.mismatches > static_cast<size_t>(m * k / 2));
  }
}

TEST_CASE("spot checks pass the right answer and catch a stale or damaged one") {
  // Every spot-checked problem's check, on cases small enough for the full reference.
  const std::vector<std::pair<std::string, Case>> cases = {
      {"matmul-gpu", Case{"t", {{"M", 200}, {"N", 300}, {"K", 150}}}},
      {"flash-attention", Case{"t", {{"N", 300}, {"d_model", 64}, {"h", 4}}}},
  };
  for (const auto& [slug, c] : cases) {
    INFO(slug);
    const Problem& p = *Registry::find(slug);
    HostCase h(p, c);
    const Buffers bufs = h.buffers();
    BufferView out;
    for (const BufferView& v : bufs.all())
      if (v.spec->role == Role::Out) out = v;
    auto write = [&](const Expected& e) {
      const auto& want = e.outputs[0].values;
      for (size_t i = 0; i < want.size(); ++i) out.as<float>()[i] = static_cast<float>(want[i]);
    };
    // The answer for other inputs (a stale, cached answer), then the right one.
    p.generate(c, 42, 7, bufs);
    write(p.reference(c, bufs));
    p.generate(c, 42, 8, bufs);
    for (uint64_t draw : {1u, 2u, 3u}) CHECK_FALSE(p.spot_check(c, bufs, draw).empty());
    write(p.reference(c, bufs));
    for (uint64_t draw : {1u, 2u, 3u}) CHECK(p.spot_check(c, bufs, draw).empty());
    // One whole row of the output wrong: Freivalds' check or the sampled rows may miss it,
    // but across draws it is found.
    const size_t cols = out.spec->cols;
    for (size_t j = 0; j < cols; ++j) out.as<float>()[5 * cols + j] += 0.5f;
    int caught = 0;
    for (uint64_t draw = 0; draw < 64; ++draw) caught += !p.spot_check(c, bufs, draw).empty();
    CHECK(caught > 0);
    // NaN anywhere checked is never right.
    for (float& x : out.as<float>()) x = std::numeric_limits<float>::quiet_NaN();
    CHECK_FALSE(p.spot_check(c, bufs, 9).empty());
  }
}

TEST_CASE("the large performance cases are spot-checked, the functional tests never") {
  for (const Problem* p : Registry::all()) {
    for (const Case& c : p->tests()) CHECK_FALSE(p->spot_checked(c));
  }
  for (const char* slug : {"matmul-gpu", "flash-attention"})
    for (const Case& c : Registry::find(slug)->benchmarks()) CHECK(Registry::find(slug)->spot_checked(c));
}

TEST_CASE("every case names a generator its problem knows, and each name gives its own inputs") {
  auto known = [](const Problem& p, const std::string& gen) {
    for (const std::string& g : p.info().generators)
      if (g == gen || (!g.empty() && g.back() == ':' && gen.rfind(g, 0) == 0 && gen.size() > g.size())) return true;
    return false;
  };
  auto inputs = [](const Problem& p, const Case& c) {
    HostCase h(p, c);
    p.generate_case(c, 42, h.buffers());
    p.generate(c, 42, 0, h.buffers());
    std::vector<std::byte> bytes;
    for (size_t i = 0; i < h.sig.buffers.size(); ++i)
      if (h.sig.buffers[i].role == Role::In) bytes.insert(bytes.end(), h.storage[i].begin(), h.storage[i].end());
    return gen::fnv1a(bytes);  // a checksum, so a failure prints two numbers
  };
  for (const Problem* p : Registry::all()) {
    INFO(p->info().slug);
    REQUIRE_FALSE(p->info().generators.empty());
    std::vector<Case> cases = p->tests();
    for (const Case& c : p->benchmarks()) cases.push_back(c);
    // The first case (under 64 MiB) of each name other than the default: generated as named,
    // and as an unknown name (the default branch) would be. Equal inputs mean the
    // problem's generate() never recognised the name.
    std::map<std::string, const Case*> first;
    const std::string& fallback = p->info().generators.front();
    for (const Case& c : cases) {
      INFO(c.name << " (generator \"" << c.gen << "\")");
      CHECK(known(*p, c.gen));
      size_t bytes = 0;
      for (const auto& b : p->signature(c).buffers) bytes += b.bytes();
      const bool is_fallback = c.gen == fallback || (fallback.back() == ':' && c.gen.rfind(fallback, 0) == 0);
      if (is_fallback || bytes == 0 || bytes > (size_t{64} << 20)) continue;
      if (!first[c.gen]) first[c.gen] = &c;
    }
    for (const auto& [gen, c] : first) {
      INFO(c->name << " (generator \"" << gen << "\")");
      Case unknown = *c;
      unknown.gen = "\x01 no such generator";
      uint64_t fell = 0;
      try {
        fell = inputs(*p, unknown);
      } catch (const std::exception&) {
        continue;  // the default branch refuses an unknown name: nothing falls through
      }
      CHECK(inputs(*p, *c) != fell);
    }
  }
}

TEST_CASE("a grader's memory cap lowers the limit and is refused below what the graded cases need") {
  REQUIRE(Registry::find("softmax-cpu"));
  const Problem& p = *Registry::find("softmax-cpu");
  const size_t own = host_memory_limit(p);
  CHECK(host_memory_limit(p, 0) == own);
  CHECK(host_memory_limit(p, size_t{1} << 30) == size_t{1} << 30);
  CHECK(host_memory_limit(p, own * 2) == own);  // a cap never raises it
  // The tests alone need less than the tests and the performance cases; both need the CPU runtime's 512 MiB.
  const size_t tests = host_memory_need(p, false), all = host_memory_need(p, true);
  CHECK(tests >= size_t{512} << 20);
  CHECK(tests < all);
  CHECK(all < own);
  CHECK_FALSE(memory_cap_refused(p, 0, true));
  CHECK_FALSE(memory_cap_refused(p, tests, false));
  REQUIRE(memory_cap_refused(p, tests - 1, false));
  CHECK(memory_cap_refused(p, tests - 1, false)->find("softmax-cpu's tests need") != std::string::npos);
  CHECK(memory_cap_refused(p, tests, true));
  // A GPU problem's runtime share is never cut.
  for (const Problem* g : Registry::all())
    if (g->info().kind == Kind::GPU) CHECK(host_memory_need(*g, true) == host_memory_limit(*g));
}
