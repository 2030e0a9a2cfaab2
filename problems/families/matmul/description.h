// The matmul family (matmul-cpu, matmul-gpu, shared-memory-fix): C = A·B for
// row-major FP32 matrices, A M×N, B N×K, C M×K (the inner, summed dimension
// is N, LeetGPU's convention). The same inputs, reference and tolerance; each
// problem brings its own info and cases.
#pragma once
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/matmul/reference.h"

namespace hpcjudge {

inline constexpr const char* kMatmulToleranceWhy =
    "Inputs lie in [-1, 1]. The rounding error of a float dot product of length N behaves like a random walk over "
    "partial sums of size up to sqrt(N)/3: for sequential summation its standard deviation is about N * 2^-24 / 4, "
    "and the largest over millions of elements stays under 6 of them. atol = 4 * N * 2^-24 (4.9e-4 at N = 2048, "
    "1.95e-3 at N = 8192) admits every FP32 summation order with margin; TF32 inputs (10-bit mantissa, tensor "
    "cores' FP32 mode) err by about sqrt(N) * 1.3e-4 (6e-3 at N = 2048) and fail, FP16/BF16 worse. The bound "
    "scales with N, not |C|, because C can be near zero through cancellation, so rtol = 0.";

inline Case matmul_case(std::string name, int m, int n, int k, int min_cores = 1) {
  return {std::move(name), {{"M", m}, {"N", n}, {"K", k}}, "uniform", min_cores};
}

// Shapes every matmul problem tests: edges, non-square, primes, not multiples of 4, 16, 32.
inline std::vector<Case> matmul_tests(std::vector<Case> extra) {
  std::vector<Case> t = {
      matmul_case("1x1x1", 1, 1, 1),           matmul_case("2x2x2", 2, 2, 2),
      matmul_case("3x3x3", 3, 3, 3),           matmul_case("4x4x4", 4, 4, 4),
      matmul_case("row-1x64x33", 1, 64, 33),   matmul_case("col-33x64x1", 33, 64, 1),
      matmul_case("dot-1x1000x1", 1, 1000, 1), matmul_case("outer-50x1x70", 50, 1, 70),
      matmul_case("prime-7x13x11", 7, 13, 11), matmul_case("31x33x35", 31, 33, 35),
      matmul_case("63x65x64", 63, 65, 64),     matmul_case("nonsquare-128x64x32", 128, 64, 32),
      matmul_case("prime-97x89x101", 97, 89, 101), matmul_case("pow2-256", 256, 256, 256),
      matmul_case("257x263x251", 257, 263, 251),   matmul_case("tall-1000x3x5", 1000, 3, 5),
      matmul_case("wide-3x5x1000", 3, 5, 1000)};
  for (auto& c : extra) t.push_back(std::move(c));
  return t;
}

template <class Fn>
class MatmulProblem : public FamilyProblem<Fn> {
 public:
  MatmulProblem(ProblemInfo info, std::vector<Case> tests, std::vector<Case> bench)
      : FamilyProblem<Fn>(std::move(info), std::move(tests), std::move(bench)) {
    this->info_.tolerance_why = kMatmulToleranceWhy;
  }
  Signature signature(const Case& c) const override {
    const size_t m = c["M"], n = c["N"], k = c["K"];
    return Signature{}
        .in("A", DType::F32, m * n, n)
        .in("B", DType::F32, n * k, k)
        .out("C", DType::F32, m * k, k)
        .scalar(c["M"])
        .scalar(c["N"])
        .scalar(c["K"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    gen::uniform(b.f32("A"), seed, input_stream(c, set, 0), -1, 1);
    gen::uniform(b.f32("B"), seed, input_stream(c, set, 1), -1, 1);
  }

  Expected reference(const Case& c, const Buffers& b) const override {
    UninitVector<double> C(static_cast<size_t>(c["M"] * c["K"]));
    reference::matmul(b.f32("A"), b.f32("B"), C, c["M"], c["N"], c["K"]);
    return {{ExpectedOutput::close(std::move(C))}};
  }

  Tolerance tolerance(const Case& c) const override {
    return {.atol = 4.0 * static_cast<double>(c["N"]) / 16777216.0, .rtol = 0};
  }

  Model model(const Case& c) const override {
    const double m = c["M"], n = c["N"], k = c["K"];
    return {.bytes = 4 * (m * n + n * k + m * k), .flops = 2 * m * n * k};
  }

  // From 2^32 multiply-adds on (4096^3 takes a second in double), Freivalds' check.
  bool spot_checked(const Case& c) const override {
    return static_cast<double>(c["M"]) * c["N"] * c["K"] >= 4294967296.0;
  }
  std::string spot_check(const Case& c, const Buffers& b, uint64_t draw) const override {
    return reference::matmul_spot_check(b.f32("A"), b.f32("B"), b.f32("C"), c["M"], c["N"], c["K"],
                                        tolerance(c).atol, draw);
  }
};

}  // namespace hpcjudge
