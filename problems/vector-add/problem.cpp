// vector-add: C = A + B for vectors of up to 1e8 floats, on the GPU.
#include "solve.h"

#include "sdk/generators.h"
#include "sdk/problem.h"

namespace hpcjudge {
namespace {

class VectorAdd final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "vector-add",
        .title = "Vector addition (CUDA)",
        .kind = Kind::GPU,
        .source_ext = "cu",
        .points = {.correctness = 40, .performance = 60},
        .tolerance_why =
            "A float addition is correctly rounded: its error is at most half an ulp, 2^-24 relative to the exact "
            "sum. rtol = 2^-23 admits that with a factor 2 of margin and atol = 0; anything else (an element "
            "lost, half precision, a wrong index) fails.",
        .bench_targets = {{"peak", 0.90, "*"}},
    };
    return i;
  }

  std::vector<Case> tests() const override {
    std::vector<Case> t;
    // Not multiples of 4 (float4 tails), of a warp or of a block; then large: past 2^24 (a float index's
    // last exact integer) and past 65,535 blocks of 256. No test of 10^8: the n100M performance case is that size,
    // and every one of its calls is checked, while a test of it cost a grade about 2 s on the H200 (1.2 GB
    // generated, copied, checked and freed in the tests' runner).
    for (int64_t n : {1, 2, 3, 4, 5, 7, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 4099, 65537, 1000003,
                      16777217})
      t.push_back(sized_case(n));
    return t;
  }

  std::vector<Case> benchmarks() const override {
    return {{"n32M", {{"N", 33554432}}}, {"n100M", {{"N", 100000000}}}};
  }

  Signature signature(const Case& c) const override {
    const size_t n = static_cast<size_t>(c["N"]);
    return Signature{}.in("A", DType::F32, n).in("B", DType::F32, n).out("C", DType::F32, n).scalar(c["N"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    gen::uniform(b.f32("A"), seed, input_stream(c, set, 0), -1, 1);
    gen::uniform(b.f32("B"), seed, input_stream(c, set, 1), -1, 1);
  }

  Expected reference(const Case& c, const Buffers& b) const override {
    const auto a = b.f32("A"), bb = b.f32("B");
    UninitVector<double> C(static_cast<size_t>(c["N"]));
    const int64_t n = c["N"];
#pragma omp parallel for if (n > (1 << 16))
    for (int64_t i = 0; i < n; ++i) C[i] = static_cast<double>(a[i]) + static_cast<double>(bb[i]);
    return {{ExpectedOutput::close(std::move(C))}};
  }

  Tolerance tolerance(const Case&) const override { return {.atol = 0, .rtol = 1.0 / 8388608.0}; }

  Model model(const Case& c) const override { return {.bytes = 12.0 * static_cast<double>(c["N"])}; }
};

HPCJUDGE_REGISTER_PROBLEM(VectorAdd);

}  // namespace
}  // namespace hpcjudge
