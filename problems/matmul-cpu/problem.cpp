// matmul-cpu: C = A·B for row-major FP32 matrices, on the CPU with OpenMP.
// A is M×N, B is N×K, C is M×K (the inner, summed dimension is N).
#include "solve.h"

#include "harness/generators.h"
#include "harness/problem.h"
#include "reference/matmul.h"

namespace hpcjudge {
namespace {

Case shape(std::string name, int m, int n, int k, int min_cores = 1) {
  return {std::move(name), {{"M", m}, {"N", n}, {"K", k}}, "uniform", min_cores};
}

class MatmulCpu final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "matmul-cpu",
        .title = "Matrix multiplication (CPU, OpenMP, FP32)",
        .kind = Kind::CPU,
        .source_ext = "cpp",
        .points = {.correctness = 40, .performance = 60},
        .timing = {},
        .tolerance_why =
            "Inputs lie in [-1, 1]. The rounding error of a float dot product of length N behaves like a random "
            "walk over partial sums of size up to sqrt(N)/3: for sequential summation its standard deviation is "
            "about N * 2^-24 / 4, and the largest over millions of elements stays under 6 of them. atol = "
            "4 * N * 2^-24 (4.9e-4 at N = 2048) admits every FP32 summation order with margin; TF32 inputs "
            "(10-bit mantissa) err by about sqrt(N) * 1.3e-4 (6e-3 at N = 2048) and fail. The bound scales with "
            "N, not |C|, because C can be near zero through cancellation, so rtol = 0.",
    };
    return i;
  }

  std::vector<Case> tests() const override {
    return {shape("1x1x1", 1, 1, 1),         shape("2x2x2", 2, 2, 2),         shape("3x3x3", 3, 3, 3),
            shape("4x4x4", 4, 4, 4),         shape("row-1x64x33", 1, 64, 33), shape("col-33x64x1", 33, 64, 1),
            shape("dot-1x1000x1", 1, 1000, 1), shape("outer-50x1x70", 50, 1, 70),
            shape("prime-7x13x11", 7, 13, 11), shape("31x33x35", 31, 33, 35), shape("63x65x64", 63, 65, 64),
            shape("nonsquare-128x64x32", 128, 64, 32), shape("prime-97x89x101", 97, 89, 101),
            shape("pow2-256", 256, 256, 256), shape("257x263x251", 257, 263, 251),
            shape("tall-1000x3x5", 1000, 3, 5), shape("wide-3x5x1000", 3, 5, 1000)};
  }

  std::vector<Case> benchmarks() const override {
    return {shape("512^3", 512, 512, 512), shape("1024^3", 1024, 1024, 1024),
            shape("skinny-4096x256x256", 4096, 256, 256), shape("2048^3", 2048, 2048, 2048, 8)};
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
    Expected e(1, std::vector<double>(static_cast<size_t>(c["M"] * c["K"])));
    reference::matmul(b.f32("A"), b.f32("B"), e[0], c["M"], c["N"], c["K"]);
    return e;
  }

  Tolerance tolerance(const Case& c) const override {
    return {.atol = 4.0 * static_cast<double>(c["N"]) / 16777216.0, .rtol = 0};
  }

  Model model(const Case& c) const override {
    const double m = c["M"], n = c["N"], k = c["K"];
    return {.bytes = 4 * (m * n + n * k + m * k), .flops = 2 * m * n * k};
  }
};

HPCJUDGE_REGISTER_PROBLEM(MatmulCpu);

}  // namespace
}  // namespace hpcjudge
