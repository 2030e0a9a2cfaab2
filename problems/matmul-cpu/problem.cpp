// matmul-cpu: C = A·B for row-major FP32 matrices, on the CPU with OpenMP.
#include "solve.h"

#include "problems/families/matmul/description.h"

namespace hpcjudge {
namespace {

struct MatmulCpu final : MatmulProblem<decltype(solve)> {
  MatmulCpu()
      : MatmulProblem({.slug = "matmul-cpu",
                       .title = "Matrix multiplication (CPU, OpenMP, FP32)",
                       .kind = Kind::CPU,
                       .source_ext = "cpp",
                       .points = {.correctness = 40, .performance = 60},
                       .bench_targets = {{"vendor", 0.70}}},
                      matmul_tests({}),
                      {matmul_case("512^3", 512, 512, 512), matmul_case("1024^3", 1024, 1024, 1024),
                       matmul_case("skinny-4096x256x256", 4096, 256, 256),
                       matmul_case("2048^3", 2048, 2048, 2048, 8)}) {}
};

HPCJUDGE_REGISTER_PROBLEM(MatmulCpu);

}  // namespace
}  // namespace hpcjudge
