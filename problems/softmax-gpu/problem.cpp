// softmax-gpu: softmax over a vector of up to 1e8 floats, on the GPU.
#include "solve.h"

#include "problems/families/softmax/description.h"

namespace hpcjudge {
namespace {

struct SoftmaxGpu final : SoftmaxProblem<decltype(solve)> {
  SoftmaxGpu()
      : SoftmaxProblem({.slug = "softmax-gpu",
                        .title = "Softmax (CUDA)",
                        .kind = Kind::GPU,
                        .source_ext = "cu",
                        .points = {.correctness = 40, .performance = 60},
                        .generators = {"uniform", "equal", "equal-large", "large", "negative", "spike", "wide"},
                        .bench_targets = {{"peak", 0.75}, {"peak", 0.30, "n1M"}}},
                       // No test of 10^8: the n100M performance case is that size, each of its calls checked.
                       softmax_tests({1025, 16777217}),
                       {{"n1M", {{"N", 1000000}}}, {"n16M", {{"N", 16777216}}}, {"n100M", {{"N", 100000000}}}},
                       12.0) {}  // N floats exceed the caches: read twice (max and sum first), write once
};

HPCJUDGE_REGISTER_PROBLEM(SoftmaxGpu);

}  // namespace
}  // namespace hpcjudge
