// bfs: the graphs each case promises (deterministic, symmetric, the grid's diameter and no closed form for its
// levels, the chain's length, the star's hub, the unreachable half, the self-loops and duplicates), the sources
// (fresh for every input set, never isolated), and the check: exact levels, -1 for the unreachable, and the
// INT32_MIN sentinel never passing.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "queue_bfs.h"
#include "sdk/arena.h"
#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/sparse/generators.h"
#include "sdk/verify.h"
#include "host_case.h"
#include "problems/families/sparse/reference.h"

using namespace hpcjudge;
using Catch::Matchers::ContainsSubstring;

namespace {

const Problem& bfs() { return *Registry::find("bfs"); }

const Case& test_named(const std::string& name) {
  static const std::vector<Case> all = [] {
    std::vector<Case> v = bfs().tests();
    for (const Case& c : bfs().benchmarks()) v.push_back(c);
    return v;
  }();
  for (const Case& c : all)
    if (c.name == name) return c;
  FAIL("no bfs case " << name);
  return all.front();
}

struct Graph {
  Case c;
  HostCase h;
  Graph(const Case& c_, uint64_t seed = 42) : c(c_), h(bfs(), c_) { bfs().generate_case(c, seed, h.buffers()); }
  std::span<const int32_t> rp() const { return h.buffers()["row_ptr"].as<const int32_t>(); }
  std::span<const int32_t> ci() const { return h.buffers()["col_idx"].as<const int32_t>(); }
  int64_t n() const { return static_cast<int64_t>(rp().size()) - 1; }
  int64_t degree(int64_t v) const { return rp()[v + 1] - rp()[v]; }
  int32_t source(uint32_t set, uint64_t seed = 42) const {
    bfs().generate(c, seed, set, h.buffers());
    return h.buffers()["source"].as<const int32_t>()[0];
  }
  std::vector<int32_t> levels(int32_t s) const {
    const auto l = reference::bfs(rp(), ci(), s).level;
    return {l.begin(), l.end()};
  }
};

// row_ptr from 0 to m, never falling; every head in range; every edge u -> v matched by as many v -> u.
void require_valid_symmetric(const Graph& g) {
  const auto rp = g.rp(), ci = g.ci();
  REQUIRE(rp.front() == 0);
  REQUIRE(static_cast<size_t>(rp.back()) == ci.size());
  REQUIRE(std::is_sorted(rp.begin(), rp.end()));
  REQUIRE(std::all_of(ci.begin(), ci.end(), [&](int32_t v) { return v >= 0 && v < g.n(); }));
  std::vector<std::pair<int32_t, int32_t>> out, in;
  for (int32_t u = 0; u < g.n(); ++u)
    for (int32_t k = rp[u]; k < rp[u + 1]; ++k) out.emplace_back(u, ci[k]), in.emplace_back(ci[k], u);
  std::sort(out.begin(), out.end());
  std::sort(in.begin(), in.end());
  REQUIRE(out == in);
}

// The problem's grid as the generator draws it before the ids are shuffled (ids y w + x), and the shuffle.
std::vector<std::pair<int32_t, int32_t>> unshuffled_grid(const Case& c, int64_t w, uint64_t seed = 42) {
  return gen::rewired_grid_edges(w, c["n"] / w, seed, input_stream(c, 0, 0));
}
std::vector<int32_t> grid_ids(const Case& c, uint64_t seed = 42) {
  return gen::shuffled_ids(c["n"], seed, input_stream(c, 0, 1));
}
int64_t grid_width(const Case& c) { return std::stoll(c.gen.substr(5)); }  // "grid:W"

}  // namespace

TEST_CASE("bfs: every graph is valid CSR, symmetric, and the same for the same seed", "[bfs]") {
  for (const Case& c : bfs().tests()) {
    if (c["m"] > 1'000'000) continue;  // the GPU-only ones: the same generators, larger
    INFO(c.name);
    const Graph g(c), again(c), other(c, 43);
    require_valid_symmetric(g);
    CHECK(std::ranges::equal(g.ci(), again.ci()));
    CHECK(std::ranges::equal(g.rp(), again.rp()));
    if (c.gen == "rmat" || c.gen == "uniform" || c.gen == "loops" || c.gen == "halves" || c.gen.starts_with("grid:"))
      CHECK_FALSE(std::ranges::equal(g.ci(), other.ci()));  // the seed matters where the graph is random
  }
}

TEST_CASE("bfs: the grids have no closed form: rewired edges, shuffled ids, levels no distance of the coordinates",
          "[bfs]") {
  // No performance case may have an answer cheaper than the algorithm it tests (docs/design.md, "Problems as packages"): on a
  // plain grid numbered row by row the levels are Manhattan distances, written in O(1) a vertex.
  for (const char* name : {"grid-100x90", "grid-1000x1000"}) {
    INFO(name);
    const Case& c = test_named(name);
    const int64_t w = grid_width(c), h = c["n"] / w;
    const Graph g(c);
    REQUIRE(g.ci().size() == static_cast<size_t>(gen::grid_nnz(w, h, false)));  // the grid's edge count, kept
    // The CSR's layout says nothing of the grid: few edges join ids 1 or w apart (all of a plain grid's do).
    int64_t grid_like = 0;
    for (int32_t u = 0; u < g.n(); ++u)
      for (int32_t k = g.rp()[u]; k < g.rp()[u + 1]; ++k) {
        const int64_t apart = std::abs(g.ci()[k] - u);
        grid_like += apart == 1 || apart == w;
      }
    CHECK(grid_like < static_cast<int64_t>(g.ci().size()) / 100);
    // The graph is the rewired grid relabelled by the shuffle, exactly.
    const auto e = unshuffled_grid(c, w);
    const auto id = grid_ids(c);
    std::vector<int32_t> rp(g.n() + 1), ci(2 * e.size());
    gen::csr_of_edges(e, rp, ci);
    const int32_t s = static_cast<int32_t>(h / 3 * w + w / 3);
    const auto plain = reference::bfs(rp, ci, s).level;
    const std::vector<int32_t> shuffled = g.levels(id[s]);
    bool same = true;
    for (int64_t v = 0; v < g.n(); ++v) same = same && shuffled[id[v]] == plain[v];
    CHECK(same);
    // Even in the generator's own numbering, the levels are not the coordinates' distances almost everywhere, and
    // the diameter stays near w + h - 2: from a corner, at least 3/4 of it; no vertex cut off.
    int64_t manhattan = 0;
    for (int64_t v = 0; v < g.n(); ++v) manhattan += plain[v] == std::abs(v % w - s % w) + std::abs(v / w - s / w);
    CHECK(manhattan < g.n() / 10);
    const auto corner = reference::bfs(rp, ci, 0).level;
    CHECK(*std::max_element(corner.begin(), corner.end()) >= (w + h - 2) * 3 / 4);
    CHECK(*std::min_element(corner.begin(), corner.end()) >= 0);
  }
  SECTION("one vertex wide: a path, its ids shuffled") {
    const Case& c = test_named("grid-1x700");
    const Graph g(c);
    int64_t ends = 0, consecutive = 0;
    for (int64_t v = 0; v < g.n(); ++v) {
      REQUIRE((g.degree(v) == 1 || g.degree(v) == 2));
      ends += g.degree(v) == 1;
      for (int32_t k = g.rp()[v]; k < g.rp()[v + 1]; ++k) consecutive += std::abs(g.ci()[k] - v) == 1;
    }
    CHECK(ends == 2);
    CHECK(consecutive < 2 * 699 / 10);
    const auto id = grid_ids(c);
    const std::vector<int32_t> l = g.levels(id[0]);
    for (int64_t y = 0; y < 700; ++y) REQUIRE(l[id[y]] == y);
  }
  SECTION("the performance grid: thousands of levels") {
    const Case& c = test_named("grid-2048x2048");
    CHECK(c["n"] == 2048 * 2048);
    const Graph g(c);
    const std::vector<int32_t> r = g.levels(g.source(2));
    CHECK(*std::max_element(r.begin(), r.end()) >= 1500);  // from the centre about 1,700, from a corner 3,400
    CHECK(*std::min_element(r.begin(), r.end()) >= 0);     // every vertex reached
  }
}

TEST_CASE("bfs: the grid's generators give the same bytes on every machine and thread count (pinned)", "[bfs]") {
  // The performance grids' inputs stay what make bench measured; a change to either generator fails here.
  auto hash = [](const auto& v) { return gen::fnv1a(std::as_bytes(std::span(v))); };
  CHECK(hash(gen::rewired_grid_edges(100, 90, 42, 1)) == 0x4b67040ca273930bull);
  CHECK(hash(gen::shuffled_ids(9000, 42, 2)) == 0xe0832457fa4edd4dull);
  CHECK(hash(gen::shuffled_ids(1 << 20, 42, 2)) == 0x228519dc2fb3fc45ull);
}

TEST_CASE("bfs: shuffled_ids is a bijection, not the identity, and a function of its seed", "[bfs]") {
  for (int64_t n : {1, 2, 3, 700, 9000, 1 << 16, (1 << 16) + 1}) {
    INFO(n);
    const std::vector<int32_t> id = gen::shuffled_ids(n, 42, 3);
    std::vector<int32_t> sorted = id;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t v = 0; v < n; ++v) REQUIRE(sorted[v] == v);
    CHECK(gen::shuffled_ids(n, 42, 3) == id);
    if (n >= 700) {
      int64_t fixed = 0;
      for (int64_t v = 0; v < n; ++v) fixed += id[v] == v;
      CHECK(fixed < 10);
      CHECK(gen::shuffled_ids(n, 43, 3) != id);
    }
  }
}

TEST_CASE("bfs: the chain is a path of n - 1 edges, the star one hub", "[bfs]") {
  {
    const Graph g(test_named("chain-3000"));
    for (int64_t v = 0; v < g.n(); ++v) REQUIRE(g.degree(v) == (v == 0 || v == g.n() - 1 ? 1 : 2));
    const std::vector<int32_t> l = g.levels(0);
    CHECK(l.back() == 2999);
    CHECK(*std::max_element(l.begin(), l.end()) == 2999);
  }
  {
    const Graph g(test_named("star-4099"));
    int64_t hubs = 0, leaves = 0;
    for (int64_t v = 0; v < g.n(); ++v) hubs += g.degree(v) == g.n() - 1, leaves += g.degree(v) == 1;
    CHECK(hubs == 1);
    CHECK(leaves == g.n() - 1);
    for (uint32_t set = 0; set < 4; ++set) {
      const std::vector<int32_t> l = g.levels(g.source(set));
      CHECK(*std::max_element(l.begin(), l.end()) <= 2);
    }
  }
}

TEST_CASE("bfs: the halves have no edge between them, so the other half is unreachable", "[bfs]") {
  const Graph g(test_named("halves-unreachable"));
  for (int32_t u = 0; u < g.n(); ++u)
    for (int32_t k = g.rp()[u]; k < g.rp()[u + 1]; ++k) REQUIRE(g.ci()[k] % 2 == u % 2);
  int reached_even = 0, reached_odd = 0;
  for (uint32_t set = 0; set < 8; ++set) {
    const int32_t s = g.source(set);
    const std::vector<int32_t> l = g.levels(s);
    int64_t own = 0, other = 0;
    for (int64_t v = 0; v < g.n(); ++v)
      if (l[v] >= 0) (v % 2 == s % 2 ? own : other) += 1;
    CHECK(other == 0);
    CHECK(own > g.n() / 2 * 9 / 10);  // mean degree 16: a giant component in the source's half
    (s % 2 ? reached_odd : reached_even) += 1;
  }
  CHECK(reached_even > 0);  // sources in both halves, so either half is the unreachable one
  CHECK(reached_odd > 0);
}

TEST_CASE("bfs: self-loops and duplicate edges are there", "[bfs]") {
  const Graph g(test_named("loops-and-duplicates"));
  int64_t loops = 0, duplicates = 0;
  for (int32_t u = 0; u < g.n(); ++u)
    for (int32_t k = g.rp()[u]; k < g.rp()[u + 1]; ++k) {
      loops += g.ci()[k] == u;
      duplicates += k > g.rp()[u] && g.ci()[k] == g.ci()[k - 1];  // each row's heads ascending
    }
  CHECK(loops >= 12000 / 4);  // a quarter of the edges, each stored twice (one self-loop on a pair counts once)
  CHECK(duplicates >= 12000 / 4);
  const int32_t s = g.source(0);
  CHECK(g.levels(s) == queue_bfs(g.rp(), g.ci(), s));
}

TEST_CASE("bfs: graphs without edges, and R-MAT's isolated vertices", "[bfs]") {
  for (const char* name : {"n-1", "m-0"}) {
    const Graph g(test_named(name));
    CHECK(std::all_of(g.rp().begin(), g.rp().end(), [](int32_t r) { return r == 0; }));
    const int32_t s = g.source(1);
    const std::vector<int32_t> l = g.levels(s);
    for (int64_t v = 0; v < g.n(); ++v) REQUIRE(l[v] == (v == s ? 0 : -1));
  }
  const Graph g(test_named("rmat-14"));
  int64_t isolated = 0;
  for (int64_t v = 0; v < g.n(); ++v) isolated += g.degree(v) == 0;
  CHECK(isolated > g.n() / 10);  // Graph500's many isolated vertices
  for (uint32_t set = 0; set < 16; ++set) {
    const int32_t s = g.source(set);
    CHECK(g.degree(s) > 0);
    const std::vector<int32_t> l = g.levels(s);
    CHECK(std::count_if(l.begin(), l.end(), [](int32_t x) { return x >= 0; }) > (g.n() - isolated) * 9 / 10);
  }
}

TEST_CASE("bfs: a fresh source for every input set, never repeated within a case", "[bfs]") {
  SECTION("every vertex with an edge once, in the first count sets") {
    const Graph g(test_named("halves-unreachable"));
    int64_t with_edges = 0;
    for (int64_t v = 0; v < g.n(); ++v) with_edges += g.degree(v) > 0;
    std::set<int32_t> seen;
    for (uint32_t set = 0; set < with_edges; ++set) {
      const int32_t s = g.source(set);
      REQUIRE(g.degree(s) > 0);
      seen.insert(s);
    }
    CHECK(static_cast<int64_t>(seen.size()) == with_edges);
    CHECK(g.source(5) == g.source(5));  // deterministic
    CHECK(g.source(5, 42) != g.source(5, 7));
  }
  SECTION("without edges, every vertex") {
    const Graph g(test_named("m-0"));
    std::set<int32_t> seen;
    for (uint32_t set = 0; set < 1000; ++set) seen.insert(g.source(set));
    CHECK(seen.size() == 1000);
  }
  SECTION("through the harness helper directly") {
    const std::vector<int32_t> rp{0, 1, 1, 2, 2, 3};  // vertices 0, 2, 4 have an edge
    std::set<int32_t> seen;
    for (uint64_t set = 0; set < 3; ++set) seen.insert(gen::pick_source(rp, 9, 1, set));
    CHECK(seen == std::set<int32_t>{0, 2, 4});
  }
}

TEST_CASE("bfs: levels are checked exactly; -1 must be written; the sentinel never passes", "[bfs]") {
  const Problem& p = bfs();
  for (const char* name : {"halves-unreachable", "uniform-degree-2", "rmat-10"}) {
    INFO(name);
    const Case& c = test_named(name);
    HostCase h(p, c);
    const Buffers b = h.buffers();
    p.generate_case(c, 42, b);
    p.generate(c, 42, 0, b);
    const Expected e = p.reference(c, b);
    const auto level = b["level"].as<int32_t>();
    const auto want = queue_bfs(b["row_ptr"].as<const int32_t>(), b["col_idx"].as<const int32_t>(),
                                b["source"].as<const int32_t>()[0]);
    REQUIRE(e.outputs.size() == 1);
    REQUIRE(std::memcmp(e.outputs[0].exact.data(), want.data(), want.size() * sizeof(int32_t)) == 0);
    auto verdict = [&] { return verify_outputs(p, c, b, e, 0); };
    std::copy(want.begin(), want.end(), level.begin());
    CHECK(verdict().ok);
    // Unreachable vertices left as they were (the sentinel): caught, with the hint.
    fill_sentinel(b["level"]);
    for (size_t v = 0; v < want.size(); ++v)
      if (want[v] >= 0) level[v] = want[v];
    const Verification unwritten = verdict();
    CHECK_FALSE(unwritten.ok);
    CHECK_THAT(unwritten.message, ContainsSubstring("got -2147483648"));
    // One level one too many, one unreachable vertex given a level, one reached vertex called unreachable.
    for (int wrong = 0; wrong < 3; ++wrong) {
      std::copy(want.begin(), want.end(), level.begin());
      const auto at = std::find_if(want.begin() + 1, want.end(), [&](int32_t l) { return wrong == 1 ? l < 0 : l > 0; });
      REQUIRE(at != want.end());
      level[at - want.begin()] = wrong == 0 ? *at + 1 : wrong == 1 ? 1 : -1;
      CHECK_FALSE(verdict().ok);
    }
  }
}
