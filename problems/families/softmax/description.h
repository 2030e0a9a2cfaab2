// The softmax family (softmax-cpu, softmax-gpu): the same signature, inputs,
// reference and tolerance; each problem brings its own info and cases.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/softmax/reference.h"

namespace hpcjudge {

inline constexpr const char* kSoftmaxToleranceWhy =
    "Outputs are of order 1/N, so atol = 1e-12 lies far below 1/N (1e-8 at N = 1e8) and an all-zero output "
    "fails. rtol = 1e-4 admits careful float arithmetic: 1-2 ulp from expf and the rounding of x - max (<= 6e-6 "
    "relative for |x - max| <= 100), and a float sum taken in blocks, pairwise, by a tree or in double (~1e-7). "
    "It rejects a single float accumulator over millions of terms, whose loss is systematic (small terms rounded "
    "away): 1.5e-3 at N = 2^20, 2.5e-2 at N = 2^24 on these inputs.";

// The functional tests every softmax problem has, then `extra` sizes of uniform inputs.
inline std::vector<Case> softmax_tests(const std::vector<int64_t>& extra) {
  std::vector<Case> t;
  for (int n : {1, 2, 3, 4, 5, 7, 31, 32, 33, 127, 1000}) t.push_back(sized_case(n));
  t.push_back({"prime-65537", {{"N", 65537}}});
  t.push_back({"pow2-1048576", {{"N", 1 << 20}}});
  t.push_back({"prime-1000003", {{"N", 1000003}}});
  for (int64_t n : extra) t.push_back(sized_case(n));
  t.push_back({"all-equal", {{"N", 1000}}, "equal"});
  t.push_back({"all-equal-large", {{"N", 4097}}, "equal-large"});
  t.push_back({"large-80-100", {{"N", 4099}}, "large"});
  t.push_back({"negative-1000-900", {{"N", 4101}}, "negative"});
  t.push_back({"one-spike", {{"N", 10007}}, "spike"});
  t.push_back({"whole-range", {{"N", 100003}}, "wide"});
  return t;
}

template <class Fn>
class SoftmaxProblem : public FamilyProblem<Fn> {
 public:
  // bytes_per_element: the traffic model (8 = read once, write once; 12 = read twice, write once).
  SoftmaxProblem(ProblemInfo info, std::vector<Case> tests, std::vector<Case> bench, double bytes_per_element)
      : FamilyProblem<Fn>(std::move(info), std::move(tests), std::move(bench)), bytes_(bytes_per_element) {
    this->info_.tolerance_why = kSoftmaxToleranceWhy;
  }
  Signature signature(const Case& c) const override {
    const size_t n = static_cast<size_t>(c["N"]);
    return Signature{}.in("input", DType::F32, n).out("output", DType::F32, n).scalar(c["N"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto x = b.f32("input");
    const uint32_t stream = input_stream(c, set, 0);
    if (c.gen == "equal") gen::constant(x, 3.5f);
    else if (c.gen == "equal-large") gen::constant(x, 1000.0f);
    else if (c.gen == "large") gen::uniform(x, seed, stream, 80, 100);
    else if (c.gen == "negative") gen::uniform(x, seed, stream, -1000, -900);
    else if (c.gen == "spike") gen::uniform_with_spikes(x, seed, stream, -1, 1, 1, 50.0f);
    else if (c.gen == "wide") gen::uniform(x, seed, stream, -1000, 1000);
    else gen::uniform(x, seed, stream, -5, 5);
  }

  Expected reference(const Case& c, const Buffers& b) const override {
    UninitVector<double> y(static_cast<size_t>(c["N"]));
    reference::softmax(b.f32("input"), y);
    return {{ExpectedOutput::close(std::move(y))}};
  }

  Tolerance tolerance(const Case&) const override { return {.atol = 1e-12, .rtol = 1e-4}; }

  Model model(const Case& c) const override { return {.bytes = bytes_ * static_cast<double>(c["N"])}; }

 private:
  double bytes_;
};

}  // namespace hpcjudge
