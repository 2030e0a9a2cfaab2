// The graph side of problems/families/sparse/generators.h and problems/families/sparse/reference.h (groundwork for a bfs problem): undirected edges
// stored both ways, R-MAT's skew, and the parallel BFS reference against a plain queue.
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <algorithm>
#include <queue>
#include <vector>

#include "queue_bfs.h"
#include "sdk/generators.h"
#include "problems/families/sparse/generators.h"
#include "problems/families/sparse/reference.h"

using namespace hpcjudge;

namespace {

struct Graph {
  std::vector<int32_t> rp, ci;
  Graph(int64_t n, const std::vector<std::pair<int32_t, int32_t>>& e) : rp(n + 1), ci(2 * e.size()) {
    gen::csr_of_edges(e, rp, ci);
  }
};

std::vector<int32_t> levels(const reference::BfsAnswer& a) { return {a.level.begin(), a.level.end()}; }

// The edges of the reached vertices, counted one by one.
int64_t reached_edges(const Graph& g, const std::vector<int32_t>& level) {
  int64_t edges = 0;
  for (size_t v = 0; v < level.size(); ++v)
    if (level[v] >= 0) edges += g.rp[v + 1] - g.rp[v];
  return edges;
}

}  // namespace

TEST_CASE("graphs: each undirected edge stored both ways, neighbours ascending", "[graphs]") {
  const std::vector<std::pair<int32_t, int32_t>> e{{0, 1}, {1, 2}, {2, 2}, {0, 1}, {3, 0}};
  const Graph g(5, e);
  CHECK(g.rp == std::vector<int32_t>{0, 3, 6, 9, 10, 10});
  CHECK(g.ci == std::vector<int32_t>{1, 1, 3, 0, 0, 2, 1, 2, 2, 0});  // duplicates and the self-loop kept
}

TEST_CASE("graphs: R-MAT edges are skewed and stay in range", "[graphs]") {
  const int scale = 14;
  const int64_t n = int64_t{1} << scale;
  const auto e = gen::rmat_edges(scale, 16 * n, 42, 1);
  const Graph g(n, e);
  int64_t isolated = 0, longest = 0;
  for (int64_t v = 0; v < n; ++v) {
    const int64_t d = g.rp[v + 1] - g.rp[v];
    isolated += d == 0;
    longest = std::max(longest, d);
  }
  CHECK(isolated > n / 10);  // Graph500's many isolated vertices
  CHECK(longest > 100 * 32);  // a hub far above the mean degree of 32
  CHECK(std::all_of(g.ci.begin(), g.ci.end(), [&](int32_t v) { return v >= 0 && v < n; }));
  CHECK(gen::rmat_edges(scale, 1000, 42, 1) == std::vector<std::pair<int32_t, int32_t>>(e.begin(), e.begin() + 1000));
}

TEST_CASE("graphs: the BFS reference agrees with a plain queue", "[graphs]") {
  SECTION("R-MAT from several sources, parallel levels") {
    const int scale = 15;
    const int64_t n = int64_t{1} << scale;
    const Graph g(n, gen::rmat_edges(scale, 16 * n, 7, 2));
    for (int32_t s : {0, 1, 12345, static_cast<int32_t>(n - 1)}) {
      const reference::BfsAnswer a = reference::bfs(g.rp, g.ci, s);
      CHECK(levels(a) == queue_bfs(g.rp, g.ci, s));
      CHECK(a.reached_edges == reached_edges(g, levels(a)));
    }
  }
  SECTION("a grid: levels are Manhattan distances") {
    const int64_t w = 70, h = 40;
    std::vector<int32_t> rp(w * h + 1), ci(gen::grid_nnz(w, h, false));
    gen::csr_grid(rp, ci, w, h, false);
    const reference::BfsAnswer a = reference::bfs(rp, ci, 0);
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) REQUIRE(a.level[y * w + x] == x + y);
  }
  SECTION("two halves: the other half unreachable") {
    auto e = gen::uniform_edges(0, 500, 3000, 3, 4);
    const auto f = gen::uniform_edges(500, 500, 3000, 3, 5);
    e.insert(e.end(), f.begin(), f.end());
    const Graph g(1000, e);
    const reference::BfsAnswer a = reference::bfs(g.rp, g.ci, 17);
    CHECK(levels(a) == queue_bfs(g.rp, g.ci, 17));
    CHECK(std::all_of(a.level.begin() + 500, a.level.end(), [](int32_t l) { return l == -1; }));
  }
  SECTION("one vertex, no edges") {
    const std::vector<int32_t> rp{0, 0}, ci;
    CHECK(levels(reference::bfs(rp, ci, 0)) == std::vector<int32_t>{0});
  }
}

TEST_CASE("graphs: the BFS reference agrees with a plain queue on every path it takes", "[graphs]") {
  // Past 2^16 vertices the reference works in parallel: a frontier of over 4096 vertices top-down by
  // compare-and-swap, one that holds many of the unexplored edges bottom-up, small ones on one thread.
  SECTION("R-MAT of 2^17 vertices: bottom-up in its middle levels") {
    const int scale = 17;
    const int64_t n = int64_t{1} << scale;
    const Graph g(n, gen::rmat_edges(scale, 16 * n, 11, 3));
    for (int32_t s : {0, 3, 77777}) {
      const reference::BfsAnswer a = reference::bfs(g.rp, g.ci, s);
      const std::vector<int32_t> want = queue_bfs(g.rp, g.ci, s);
      CHECK(levels(a) == want);
      CHECK(a.reached_edges == reached_edges(g, want));
    }
  }
  SECTION("a sparse uniform graph of 2^20 vertices: wide top-down levels before it turns") {
    const int64_t n = int64_t{1} << 20;
    const Graph g(n, gen::uniform_edges(0, n, 2 * n, 5, 6));
    const reference::BfsAnswer a = reference::bfs(g.rp, g.ci, 1234);
    const std::vector<int32_t> want = queue_bfs(g.rp, g.ci, 1234);
    CHECK(levels(a) == want);
    CHECK(a.reached_edges == reached_edges(g, want));
  }
  SECTION("a grid of 600 x 300: hundreds of narrow levels, and a disconnected pair of halves") {
    std::vector<int32_t> rp(600 * 300 + 1), ci(gen::grid_nnz(600, 300, false));
    gen::csr_grid(rp, ci, 600, 300, false);
    const reference::BfsAnswer a = reference::bfs(rp, ci, 299 * 600 + 17);
    for (int64_t y = 0; y < 300; ++y)
      for (int64_t x = 0; x < 600; ++x) REQUIRE(a.level[y * 600 + x] == std::abs(x - 17) + (299 - y));
    CHECK(a.reached_edges == static_cast<int64_t>(ci.size()));
    auto e = gen::uniform_edges(0, 100000, 400000, 8, 9);
    const auto f = gen::uniform_edges(100000, 100000, 400000, 8, 10);
    e.insert(e.end(), f.begin(), f.end());
    const Graph h(200000, e);
    const std::vector<int32_t> want = queue_bfs(h.rp, h.ci, 150000);
    CHECK(levels(reference::bfs(h.rp, h.ci, 150000)) == want);
    CHECK(std::all_of(want.begin(), want.begin() + 100000, [](int32_t l) { return l == -1; }));
  }
}

TEST_CASE("graphs and patterns: the same bytes as the serial-era generators (pinned)", "[graphs]") {
  // Checksums made with the generators before R-MAT's quadrants went branch-free, bucket() placed entries block by
  // block instead of by atomic scatter, and long rows drew into a bitmap: the inputs of every graph and matrix stay
  // what they were.
  auto hash = [](const auto& v) { return gen::fnv1a(std::as_bytes(std::span(v))); };
  const auto e = gen::rmat_edges(16, 1 << 20, 42, 1);
  CHECK(hash(e) == 0x11ae368e6c26bb66ull);
  const Graph g(int64_t{1} << 16, e);
  CHECK(hash(g.rp) == 0x74257bce967a7627ull);
  CHECK(hash(g.ci) == 0xe1370edd735620d2ull);
  std::vector<int32_t> rp((1 << 14) + 1), ci(1 << 18);
  gen::csr_rmat(rp, ci, 14, 7, 3);
  CHECK(hash(rp) == 0xc080dc3f6af08a2eull);
  CHECK(hash(ci) == 0x2873e7e915b74059ull);
  std::vector<int32_t> long_rp(33), long_ci(32 * 20000);  // 32 rows of half of 40,000 columns
  for (int r = 0; r <= 32; ++r) long_rp[r] = r * 20000;
  gen::csr_random_columns(long_rp, long_ci, 40000, 42, 5);
  CHECK(hash(long_ci) == 0x2806cb0d28207e96ull);
}
