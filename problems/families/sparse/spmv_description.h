// The spmv family (spmv on the GPU, spmv-cpu with OpenMP): the same signature (CSR in, an optional untimed
// setup() into a workspace the submission sizes, a fresh x every call), matrices, reference, per-row tolerance and
// traffic model; each problem brings its own info and cases.
#pragma once
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/sparse/generators.h"
#include "problems/families/sparse/reference.h"

namespace hpcjudge {

inline constexpr const char* kSpmvToleranceWhy =
    "Per row, the FP32 error bound of a dot product: |y_i - sum_j A_ij x_j| <= gamma_n * sum_j |A_ij x_j| "
    "with n the row's non-zeros and gamma_n = n u / (1 - n u), u = 2^-24 (Higham, 3.1). It holds for every "
    "summation order (a thread per row, a warp's tree, segments joined by atomics, ELL's zeros, which add "
    "exactly) and for FMA, so every correct FP32 format passes; a dropped or doubled non-zero moves y_i by "
    "|A_ij x_j|, far past the bound on a short row. The reference is computed in double, its products exact. "
    "An empty row must be 0 exactly (the output starts as NaN). The values (in [-0.5, 1)) and x (in [0, 1)) have "
    "positive means, so |y_i| is of the order of sum |A_ij x_j| and an all-zero y fails on every row of up "
    "to millions of non-zeros.";

// The matrix generators every spmv problem names (ProblemInfo::generators).
inline const std::vector<std::string> kSpmvGenerators = {"uniform", "fixed", "band:", "stencil:", "rmat",
                                                         "dense-row"};

namespace spmv_cases {
inline Case matrix(std::string name, int64_t rows, int64_t cols, int64_t nnz, std::string gen) {
  return Case{std::move(name), {{"rows", rows}, {"cols", cols}, {"nnz", nnz}}, std::move(gen)};
}
inline Case fixed(int64_t rows, int64_t cols, int64_t len) {
  return matrix("row-length-" + std::to_string(len), rows, cols, rows * len, "fixed");
}
inline Case band(int64_t n, int64_t w) {
  return matrix("band-" + std::to_string(w), n, n, gen::band_nnz(n, w), "band:" + std::to_string(w));
}
inline Case stencil(std::string name, int64_t g) {
  return matrix(std::move(name), g * g, g * g, gen::grid_nnz(g, g, true), "stencil:" + std::to_string(g));
}
inline Case rmat(std::string name, int scale) {
  const int64_t n = int64_t{1} << scale;
  return matrix(std::move(name), n, n, 16 * n, "rmat");
}
}  // namespace spmv_cases

// The functional tests of every spmv problem: the pathological shapes, row lengths around a warp, the kinds of
// the performance cases at smaller sizes, and the largest last (it runs a second time with a new x).
inline std::vector<Case> spmv_tests() {
  using namespace spmv_cases;
  return {matrix("nnz-0", 1000, 1000, 0, "uniform"),
          matrix("1x1", 1, 1, 1, "uniform"),
          matrix("rows-1", 1, 100000, 30000, "uniform"),
          matrix("one-column", 50000, 1, 30000, "uniform"),
          matrix("empty-rows", 200000, 5000, 30000, "uniform"),
          fixed(4099, 4099, 1),
          fixed(3001, 20000, 31),
          fixed(3001, 20000, 32),
          fixed(3001, 20000, 33),
          fixed(257, 100000, 1025),
          matrix("dense-row", 30001, 30001, 30001 + 200000, "dense-row"),
          matrix("long-rows", 32, 400000, 32 * 200000, "fixed"),
          matrix("tall", 300000, 70, 900000, "uniform"),
          matrix("wide", 70, 300000, 900000, "uniform"),
          band(100003, 7),
          stencil("stencil-301x301", 301),
          rmat("rmat-14", 14),
          rmat("rmat-18", 18),
          matrix("uniform-8M", 1000003, 1000003, 8000000, "uniform")};
}

template <class Solve, class WorkspaceSize, class Setup>
class SpmvProblem : public FamilyProblem<Solve, WorkspaceSize, Setup> {
 public:
  SpmvProblem(ProblemInfo info, std::vector<Case> tests, std::vector<Case> bench)
      : FamilyProblem<Solve, WorkspaceSize, Setup>(std::move(info), std::move(tests), std::move(bench)) {
    this->info_.tolerance_why = kSpmvToleranceWhy;
    this->info_.generators = kSpmvGenerators;
  }
  Signature signature(const Case& c) const override {
    const auto rows = static_cast<size_t>(c["rows"]), cols = static_cast<size_t>(c["cols"]),
               nnz = static_cast<size_t>(c["nnz"]);
    return Signature{}
        .scalar(c["rows"])
        .scalar(c["cols"])
        .scalar(c["nnz"])
        .in_per_case("row_ptr", DType::I32, rows + 1)
        .in_per_case("col_idx", DType::I32, nnz)
        .in_per_case("values", DType::F32, nnz)
        .workspace("workspace", {c["rows"], c["cols"], c["nnz"]})
        .in("x", DType::F32, cols)
        .out("y", DType::F32, rows)
        .setup({0, 1, 2, 3, 4, 5, 6});
  }

  void generate_case(const Case& c, uint64_t seed, const Buffers& b) const override {
    const auto row_ptr = b["row_ptr"].as<int32_t>(), col_idx = b["col_idx"].as<int32_t>();
    const int64_t rows = c["rows"], cols = c["cols"];
    const uint32_t s_pattern = input_stream(c, 0, 0), s_values = input_stream(c, 0, 2);
    const std::string kind = c.gen.substr(0, c.gen.find(':'));
    const auto param = [&] { return std::stoll(c.gen.substr(c.gen.find(':') + 1)); };  // "kind:P"
    if (kind == "fixed") {
      const int64_t len = rows > 0 ? c["nnz"] / rows : 0;
      for (int64_t i = 0; i <= rows; ++i) row_ptr[i] = static_cast<int32_t>(i * len);
      gen::csr_random_columns(row_ptr, col_idx, cols, seed, s_pattern);
    } else if (kind == "band") {
      gen::csr_band(row_ptr, col_idx, param());
    } else if (kind == "stencil") {
      const int64_t g = param();
      gen::csr_grid(row_ptr, col_idx, g, g, true);
    } else if (kind == "rmat") {
      gen::csr_rmat(row_ptr, col_idx, static_cast<int>(std::llround(std::log2(static_cast<double>(rows)))), seed,
                    s_pattern);
    } else {
      gen::csr_uniform(row_ptr, col_idx, cols, seed, s_pattern, kind == "dense-row" ? rows / 2 : -1);
    }
    // Both signs, but a positive mean (as x has), so y stays of the order of sum |A_ij x_j|: far outside the
    // bound of an all-zero answer even on a row of 10^5 (the bound grows as n^2 2^-24 of a product; a
    // zero-mean y would only grow as sqrt(n)).
    gen::uniform(b.f32("values"), seed, s_values, -0.5, 1);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    gen::uniform(b.f32("x"), seed, input_stream(c, set, 7), 0, 1);
  }

  Expected reference(const Case&, const Buffers& b) const override {
    reference::SpmvAnswer a = reference::spmv(b["row_ptr"].template as<const int32_t>(),
                                              b["col_idx"].template as<const int32_t>(),
                                              b["values"].template as<const float>(), b["x"].template as<const float>());
    return {{ExpectedOutput::close(std::move(a.y), std::move(a.bound))}};
  }

  Tolerance tolerance(const Case&) const override { return {}; }  // the per-row bound only

  // Each non-zero's value and column once, row_ptr once, x once, y written once.
  Model model(const Case& c) const override {
    const auto rows = static_cast<double>(c["rows"]), cols = static_cast<double>(c["cols"]),
               nnz = static_cast<double>(c["nnz"]);
    return {.bytes = 8 * nnz + 4 * (rows + 1) + 4 * rows + 4 * cols};
  }
};

}  // namespace hpcjudge
