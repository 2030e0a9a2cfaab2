// reduction: the sum of up to 10^8 floats on the GPU. The tolerance is the point:
// every correct FP32 summation order passes, and a dropped, doubled or misplaced
// element fails at every size.
#include "solve.h"

#include <cmath>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/primitives/reference.h"

namespace hpcjudge {
namespace {

// The exact inputs: +-k / 64, k in [1, 64]. Every value and every sum of them below
// 2^24 units (2^18) in magnitude is a float, exactly.
constexpr uint32_t kMaxMultiple = 64;
constexpr double kUnit = 1.0 / 64;

// gamma_k = k u / (1 - k u), u = 2^-24: the bound on the relative error of any order
// of k float additions, relative to the sum of the magnitudes (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., section 4.2).
double gamma_float(int64_t k) {
  const double ku = static_cast<double>(k) * std::ldexp(1.0, -24);
  return ku / (1 - ku);
}

class Reduction final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "reduction",
        .title = "Sum reduction (CUDA, FP32)",
        .kind = Kind::GPU,
        .source_ext = "cu",
        .points = {.correctness = 40, .performance = 60},
        .tolerance_why =
            "Two kinds of input. Exact (every size, and the timed cases): values +-k/64, k in [1, 64]. A sum of "
            "them is a multiple of 1/64 and a float while below 2^18 in magnitude; any summation order adds "
            "sums over index sets that do not depend on the values, and for a set of at most 10^8 random-signed "
            "values the probability that its sum reaches 2^18 is below 2 exp(-2^48 / (2 * 10^8 * 64^2)) < 10^-149 "
            "(Hoeffding), so every order (sequential per thread, tree, warp shuffles, atomics in any order, "
            "double or compensated sums) gives the exact sum. atol = 1/128 (half a unit) then rejects any dropped, "
            "doubled or misplaced element, which moves the sum by at least 1/64, at every size up to 10^8. "
            "General (full-mantissa values up to N = 65,537): any order of n - 1 float additions is within "
            "gamma_(n-1) = (n-1)u / (1 - (n-1)u), u = 2^-24, of the exact sum relative to the sum of |x| "
            "(Higham, section 4.2). Positive values: rtol = 1.01 gamma_(n-1) (sum |x| is the sum); mixed signs: "
            "atol = 1.01 gamma_(n-1) n max|x|. That bound holds for every order, a single float accumulator "
            "included, and rejects half precision, a wrong scale or a lost part of the array.",
        .generators = {"exact", "positive", "wide", "mixed"},
        .bench_targets = {{"vendor", 0.90}},
    };
    return i;
  }

  std::vector<Case> tests() const override {
    std::vector<Case> t;
    auto add = [&](int64_t n, const char* gen, std::string name) { t.push_back({name, {{"N", n}}, gen}); };
    for (int64_t n : {1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 4097, 65537, 1048577, 9999991,
                      16777217})
      add(n, "exact", std::string("n").append(std::to_string(n)));
    for (int64_t n : {7, 1000, 65537}) add(n, "positive", std::string("positive-").append(std::to_string(n)));
    add(10007, "wide", "wide-magnitudes-10007");
    add(1000, "mixed", "mixed-signs-1000");
    add(100000000, "exact", "n100000000");  // the largest, last: it runs a second time with new inputs
    return t;
  }

  std::vector<Case> benchmarks() const override {
    return {{"n16M", {{"N", int64_t{1} << 24}}, "exact"}, {"n100M", {{"N", 100000000}}, "exact"}};
  }

  Signature signature(const Case& c) const override {
    return Signature{}.in("input", DType::F32, static_cast<size_t>(c["N"])).out("output", DType::F32, 1).scalar(c["N"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto x = b.f32("input");
    const uint32_t stream = input_stream(c, set, 0);
    if (c.gen == "positive") {
      gen::uniform(x, seed, stream, 0.5, 1.5);
    } else if (c.gen == "wide") {
      // Positive, magnitudes from 2^-20 to 2^20: (1 + frac y) * 2^floor(y) for y uniform in [-20, 20),
      // exact (floor and ldexp do not round).
      gen::uniform(x, seed, stream, -20, 20);
      for (float& v : x) {
        const double e = std::floor(static_cast<double>(v));
        v = static_cast<float>(std::ldexp(1 + (v - e), static_cast<int>(e)));
      }
    } else if (c.gen == "mixed") {
      gen::uniform(x, seed, stream, -1, 1);
    } else {
      gen::signed_multiples(x, seed, stream, kMaxMultiple, kUnit);
    }
  }

  Expected reference(const Case&, const Buffers& b) const override {
    return {{ExpectedOutput::close({reference::sum(b.f32("input")).sum})}};
  }

  Tolerance tolerance(const Case& c) const override {
    const int64_t n = c["N"];
    const double g = 1.01 * gamma_float(n - 1);
    if (c.gen == "positive" || c.gen == "wide") return {.atol = 0, .rtol = g};
    if (c.gen == "mixed") return {.atol = g * static_cast<double>(n) * 1.0, .rtol = 0};  // max |x| = 1
    return {.atol = kUnit / 2, .rtol = 0};
  }

  // The input read once; the one output is negligible.
  Model model(const Case& c) const override { return {.bytes = 4.0 * static_cast<double>(c["N"])}; }
};

HPCJUDGE_REGISTER_PROBLEM(Reduction);

}  // namespace
}  // namespace hpcjudge
