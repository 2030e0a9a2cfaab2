// matmul-gpu: C = A·B for row-major FP32 matrices up to 8192, on the GPU.
#include "solve.h"

#include "problems/families/matmul/description.h"

namespace hpcjudge {
namespace {

struct MatmulGpu final : MatmulProblem<decltype(solve)> {
  MatmulGpu()
      : MatmulProblem({.slug = "matmul-gpu",
                       .title = "Matrix multiplication (CUDA, FP32)",
                       .kind = Kind::GPU,
                       .source_ext = "cu",
                       .points = {.correctness = 40, .performance = 60},
                       .bench_targets = {{"vendor", 0.95, "square-4096"}}},
                      matmul_tests({matmul_case("dot-1x8192x1", 1, 8192, 1),
                                    matmul_case("1023x1025x1027", 1023, 1025, 1027)}),
                      {matmul_case("square-4096", 4096, 4096, 4096), matmul_case("square-8192", 8192, 8192, 8192),
                       matmul_case("skinny-8192x8192x64", 8192, 8192, 64)}) {}
};

HPCJUDGE_REGISTER_PROBLEM(MatmulGpu);

}  // namespace
}  // namespace hpcjudge
