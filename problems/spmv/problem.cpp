// spmv: y = A x for a sparse FP32 matrix given in CSR, on the GPU. A submission may convert the matrix once per
// case, untimed, in setup() (into a workspace it sizes itself); every timed call gets a fresh x.
#include "solve.h"

#include "problems/families/sparse/spmv_description.h"

namespace hpcjudge {
namespace {

struct Spmv final : SpmvProblem<decltype(solve), decltype(workspace_size), decltype(setup)> {
  Spmv()
      : SpmvProblem({.slug = "spmv",
                     .title = "Sparse matrix-vector product (CUDA, FP32, CSR in, any format)",
                     .kind = Kind::GPU,
                     .source_ext = "cu",
                     .points = {.correctness = 40, .performance = 60},
                     .timing = {.budget_s = 2.0},
                     .allowed_libraries = {"cub", "thrust"},
                     .workspace_per_input_byte = 8,
                     .bench_targets = {{"vendor", 0.90, "*"}}},
                    spmv_tests(),
                    {spmv_cases::matrix("uniform-2^22", int64_t{1} << 22, int64_t{1} << 22, int64_t{1} << 25, "uniform"),
                     spmv_cases::stencil("stencil-3000x3000", 3000), spmv_cases::rmat("rmat-21", 21)}) {}
};

HPCJUDGE_REGISTER_PROBLEM(Spmv);

}  // namespace
}  // namespace hpcjudge
