// bfs: breadth-first search levels from a source on the GPU. The graph (CSR) is the case's; every timed call gets
// a fresh source, so an answer cannot be remembered, and the levels are checked exactly.
#include "solve.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "harness/philox.h"
#include "harness/problem.h"
#include "harness/sparse.h"
#include "reference/sparse.h"

namespace hpcjudge {
namespace {

// The parameter in a generator name "kind:P".
int64_t gen_param(const std::string& gen) { return std::stoll(gen.substr(gen.find(':') + 1)); }
std::string gen_kind(const std::string& gen) { return gen.substr(0, gen.find(':')); }

class Bfs final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "bfs",
        .title = "Breadth-first search levels (CUDA, CSR graph)",
        .kind = Kind::GPU,
        .source_ext = "cu",
        .points = {.correctness = 40, .performance = 60},
        .timing = {.budget_s = 2.0},
        .tolerance_why =
            "Exact: a level is an integer, the length of a shortest path, and every correct order of visiting "
            "(vertex-parallel, edge-parallel, frontier queues, bottom-up steps) gives the same levels. level starts "
            "filled with INT32_MIN, neither -1 nor a level, so an unreachable vertex left unwritten fails.",
        .allowed_libraries = {"cub", "thrust"},
        // Listed first: uniform, the last branch but one; generate_case() refuses any other name (it throws).
        .generators = {"uniform", "none", "chain", "star", "grid:", "rmat", "loops", "halves"},
        // No vendor BFS is installed: the fast reference against the copy bandwidth, on R-MAT only. A BFS is
        // bound by its levels' latency (a launch and a copy to the host each) and scattered reads, not by
        // streaming, so the bar is low: 5% of the peak, 0.012 GTEPS per GB/s of it (about 47 GTEPS at 4 TB/s),
        // a floor until the fast reference is measured on the judging GPU. The grid's thousands of levels leave
        // any BFS far below the peak, so no bar is set there.
        .bench_target = {"peak", 0.05, "rmat-22"},
        // Tests past 4 MB of traffic run on a GPU only: under emulation a vertex-parallel kernel costs n threads
        // for each of the graph's levels, and the chain's, grid's and R-MAT's must stay in seconds.
        .emulation_max_bytes = 4e6,
    };
    return i;
  }

  static Case g(std::string name, int64_t n, int64_t m, std::string gen) {
    return Case{std::move(name), {{"n", n}, {"m", m}}, std::move(gen)};
  }
  // m counts directed edges: each undirected edge of the generators is stored both ways.
  static Case chain(int64_t n) { return g("chain-" + std::to_string(n), n, 2 * (n - 1), "chain"); }
  static Case star(int64_t n) { return g("star-" + std::to_string(n), n, 2 * (n - 1), "star"); }
  static Case grid(int64_t w, int64_t h) {
    return g("grid-" + std::to_string(w) + "x" + std::to_string(h), w * h, gen::grid_nnz(w, h, false),
             "grid:" + std::to_string(w));
  }
  static Case rmat(int scale) {
    const int64_t n = int64_t{1} << scale;
    return g("rmat-" + std::to_string(scale), n, 2 * 16 * n, "rmat");  // Graph500's edge factor 16
  }

  std::vector<Case> tests() const override {
    return {g("n-1", 1, 0, "none"),
            g("m-0", 1000, 0, "none"),
            g("pair", 2, 2, "chain"),
            chain(4),
            g("uniform-33", 33, 2 * 48, "uniform"),    // either side of a warp
            g("uniform-257", 257, 2 * 600, "uniform"),  // and of a block of 256
            g("loops-and-duplicates", 3001, 2 * 12000, "loops"),
            star(4099),
            chain(3000),
            grid(100, 90),
            grid(1, 700),
            g("halves-unreachable", 5000, 2 * 20000, "halves"),
            g("uniform-degree-2", 20000, 2 * 20000, "uniform"),
            rmat(10),
            rmat(14),
            // GPU only (past emulation_max_bytes):
            grid(1000, 1000),
            g("halves-1M", 1000000, 2 * 4000000, "halves"),
            rmat(18),
            g("uniform-1M", 1000000, 2 * 8000000, "uniform")};  // the largest, last: run twice
  }

  std::vector<Case> benchmarks() const override { return {rmat(22), grid(2048, 2048)}; }

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
    const auto row_ptr = b["row_ptr"].as<int32_t>(), col_idx = b["col_idx"].as<int32_t>();
    const int64_t n = c["n"], edges = c["m"] / 2;
    const uint32_t s = input_stream(c, 0, 0);
    const std::string kind = gen_kind(c.gen);
    if (kind == "grid") {
      const int64_t w = gen_param(c.gen);
      gen::csr_grid(row_ptr, col_idx, w, n / w, false);
      return;
    }
    std::vector<std::pair<int32_t, int32_t>> e;
    if (kind == "none") {
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
      throw std::invalid_argument("bfs: no graph generator \"" + c.gen + "\"");
    }
    gen::csr_of_edges(e, row_ptr, col_idx);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    b["source"].as<int32_t>()[0] = gen::pick_source(b["row_ptr"].as<const int32_t>(), seed, input_stream(c, 0, 4), set);
  }

  Expected reference(const Case&, const Buffers& b) const override {
    const reference::BfsAnswer a = reference::bfs(b["row_ptr"].as<const int32_t>(), b["col_idx"].as<const int32_t>(),
                                                  b["source"].as<const int32_t>()[0]);
    return {{ExpectedOutput::exactly<int32_t>(a.level)}};
  }

  Tolerance tolerance(const Case&) const override { return {}; }  // exact

  // Every edge read once, row_ptr once, level written once (GTEPS = m / time: see the statement).
  Model model(const Case& c) const override {
    const auto n = static_cast<double>(c["n"]), m = static_cast<double>(c["m"]);
    return {.bytes = 4 * m + 4 * (n + 1) + 4 * n};
  }
};

HPCJUDGE_REGISTER_PROBLEM(Bfs);

}  // namespace
}  // namespace hpcjudge
