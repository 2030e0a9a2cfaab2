// softmax-cpu: softmax over a vector of N floats, on the CPU with OpenMP.
#include "solve.h"

#include "problems/families/softmax/description.h"

namespace hpcjudge {
namespace {

struct SoftmaxCpu final : SoftmaxProblem<decltype(solve)> {
  SoftmaxCpu()
      : SoftmaxProblem({.slug = "softmax-cpu",
                        .title = "Softmax (CPU, OpenMP)",
                        .kind = Kind::CPU,
                        .source_ext = "cpp",
                        .points = {.correctness = 40, .performance = 60},
                        .generators = {"uniform", "equal", "equal-large", "large", "negative", "spike", "wide"},
                        .bench_targets = {{"peak", 0.70}}},
                       softmax_tests({}),
                       {{"n1M", {{"N", 1000000}}}, {"n16M", {{"N", 16777216}}}, {"n100M", {{"N", 100000000}}, "uniform", 16}},
                       12.0) {}  // read twice, write once: the traffic of any algorithm once N floats outgrow the caches
};

HPCJUDGE_REGISTER_PROBLEM(SoftmaxCpu);

}  // namespace
}  // namespace hpcjudge
