// The bfs family (bfs on the GPU, bfs-cpu with OpenMP): the same signature (a symmetric CSR graph per case, a
// fresh source every call, levels written exactly), graphs, reference and traffic model; each problem brings its
// own info and cases.
#pragma once
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sdk/philox.h"
#include "sdk/problem.h"
#include "problems/families/sparse/generators.h"
#include "problems/families/sparse/reference.h"

namespace hpcjudge {

inline constexpr const char* kBfsToleranceWhy =
    "Exact: a level is an integer, the length of a shortest path, and every correct order of visiting "
    "(vertex-parallel, edge-parallel, frontier queues, bottom-up steps) gives the same levels. level starts "
    "filled with INT32_MIN, neither -1 nor a level, so an unreachable vertex left unwritten fails.";

// Listed first: uniform, the last branch but one; generate_case() refuses any other name (it throws).
inline const std::vector<std::string> kBfsGenerators = {"uniform", "none", "chain", "star", "grid:",
                                                        "rmat",    "loops", "halves"};

namespace bfs_cases {
inline Case graph(std::string name, int64_t n, int64_t m, std::string gen) {
  return Case{std::move(name), {{"n", n}, {"m", m}}, std::move(gen)};
}
// m counts directed edges: each undirected edge of the generators is stored both ways.
inline Case chain(int64_t n) { return graph("chain-" + std::to_string(n), n, 2 * (n - 1), "chain"); }
inline Case star(int64_t n) { return graph("star-" + std::to_string(n), n, 2 * (n - 1), "star"); }
inline Case grid(int64_t w, int64_t h) {
  return graph("grid-" + std::to_string(w) + "x" + std::to_string(h), w * h, gen::grid_nnz(w, h, false),
           "grid:" + std::to_string(w));
}
inline Case rmat(int scale) {
  const int64_t n = int64_t{1} << scale;
  return graph("rmat-" + std::to_string(scale), n, 2 * 16 * n, "rmat");  // Graph500's edge factor 16
}
}  // namespace bfs_cases

// The functional tests of every bfs problem.
inline std::vector<Case> bfs_tests() {
  using namespace bfs_cases;
  return {graph("n-1", 1, 0, "none"),
          graph("m-0", 1000, 0, "none"),
          graph("pair", 2, 2, "chain"),
          chain(4),
          graph("uniform-33", 33, 2 * 48, "uniform"),    // either side of a warp
          graph("uniform-257", 257, 2 * 600, "uniform"),  // and of a block of 256
          graph("loops-and-duplicates", 3001, 2 * 12000, "loops"),
          star(4099),
          chain(3000),
          grid(100, 90),
          grid(1, 700),
          graph("halves-unreachable", 5000, 2 * 20000, "halves"),
          graph("uniform-degree-2", 20000, 2 * 20000, "uniform"),
          rmat(10),
          rmat(14),
          // Past bfs's emulation_max_bytes (4 MB of traffic): judged on a GPU, or on the CPU for bfs-cpu:
          grid(1000, 1000),
          graph("halves-1M", 1000000, 2 * 4000000, "halves"),
          rmat(18),
          graph("uniform-1M", 1000000, 2 * 8000000, "uniform")};  // the largest, last: run twice
}

template <class Solve>
class BfsProblem : public FamilyProblem<Solve> {
 public:
  BfsProblem(ProblemInfo info, std::vector<Case> tests, std::vector<Case> bench)
      : FamilyProblem<Solve>(std::move(info), std::move(tests), std::move(bench)) {
    this->info_.tolerance_why = kBfsToleranceWhy;
    this->info_.generators = kBfsGenerators;
  }
  Signature signature(const Case& c) const override {
    const auto n = static_cast<size_t>(c["n"]), m = static_cast<size_t>(c["m"]);
    return Signature{}
        .scalar(c["n"])
        .scalar(c["m"])
        .in_per_case("row_ptr", DType::I32, n + 1)
        .in_per_case("col_idx", DType::I32, m)
        .generated_scalar("source")
        .out("level", DType::I32, n);
  }

  void generate_case(const Case& c, uint64_t seed, const Buffers& b) const override {
    const auto row_ptr = b["row_ptr"].template as<int32_t>(), col_idx = b["col_idx"].template as<int32_t>();
    const int64_t n = c["n"], edges = c["m"] / 2;
    const uint32_t s = input_stream(c, 0, 0);
    const std::string kind = c.gen.substr(0, c.gen.find(':'));
    std::vector<std::pair<int32_t, int32_t>> e;
    if (kind == "grid") {
      // Rewired and its ids shuffled, so that neither a formula of the coordinates nor the CSR's layout gives the
      // levels of a performance case cheaper than a search does (docs/design.md, "Problems as packages").
      const int64_t w = std::stoll(c.gen.substr(c.gen.find(':') + 1));  // "grid:W"
      e = gen::rewired_grid_edges(w, n / w, seed, s);
      gen::relabel(e, gen::shuffled_ids(n, seed, input_stream(c, 0, 1)));
    } else if (kind == "none") {
    } else if (kind == "chain") {
      e = gen::chain_edges(n);
    } else if (kind == "star") {
      e = gen::star_edges(n, static_cast<int32_t>(philox_bits(seed, s, 0).v[0] % static_cast<uint64_t>(n)));
    } else if (kind == "rmat") {
      e = gen::rmat_edges(static_cast<int>(std::llround(std::log2(static_cast<double>(n)))), edges, seed, s);
    } else if (kind == "loops") {
      e = gen::loopy_edges(n, edges, seed, s);
    } else if (kind == "halves") {
      e = gen::split_edges(n, edges, seed, s);
    } else if (kind == "uniform") {
      e = gen::uniform_edges(0, n, edges, seed, s);
    } else {
      throw std::invalid_argument(this->info().slug + ": no graph generator \"" + c.gen + "\"");
    }
    gen::csr_of_edges(e, row_ptr, col_idx);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    b["source"].template as<int32_t>()[0] =
        gen::pick_source(b["row_ptr"].template as<const int32_t>(), seed, input_stream(c, 0, 4), set);
  }

  Expected reference(const Case&, const Buffers& b) const override {
    reference::BfsAnswer a =
        reference::bfs(b["row_ptr"].template as<const int32_t>(), b["col_idx"].template as<const int32_t>(),
                       b["source"].template as<const int32_t>()[0]);
    return {{ExpectedOutput::exactly(std::move(a.level))}};
  }

  Tolerance tolerance(const Case&) const override { return {}; }  // exact

  // Every edge read once, row_ptr once, level written once; GTEPS counts the m stored edges (the reached
  // component's: all of the grid's, over 99.9% of R-MAT's from the sources drawn; see the statement).
  Model model(const Case& c) const override {
    const auto n = static_cast<double>(c["n"]), m = static_cast<double>(c["m"]);
    return {.bytes = 4 * m + 4 * (n + 1) + 4 * n, .edges = m};
  }
};

}  // namespace hpcjudge
