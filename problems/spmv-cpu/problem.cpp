// spmv-cpu: y = A x for a sparse FP32 matrix given in CSR, on the CPU with OpenMP: the spmv family's matrices,
// setup() and tolerance (problems/families/sparse/spmv_description.h), with performance cases sized for a laptop's memory and time.
#include "solve.h"

#include "problems/families/sparse/spmv_description.h"

namespace hpcjudge {
namespace {

struct SpmvCpu final : SpmvProblem<decltype(solve), decltype(workspace_size), decltype(setup)> {
  SpmvCpu()
      : SpmvProblem({.slug = "spmv-cpu",
                     .title = "Sparse matrix-vector product (CPU, OpenMP, FP32, CSR in, any format)",
                     .kind = Kind::CPU,
                     .source_ext = "cpp",
                     .points = {.correctness = 40, .performance = 60},
                     .timing = {.budget_s = 2.0},
                     .workspace_per_input_byte = 8,
                     .bench_targets = {{"peak", 0.30}}},
                    spmv_tests(),
                    {spmv_cases::matrix("uniform-2^21", int64_t{1} << 21, int64_t{1} << 21, int64_t{1} << 24, "uniform"),
                     spmv_cases::stencil("stencil-2000x2000", 2000), spmv_cases::rmat("rmat-20", 20),
                     // One full row (2^21 non-zeros, an eighth of the rest) in the middle: the thread that owns it
                     // under an even split of the rows has far more to do than the others.
                     spmv_cases::matrix("dense-row-2^21", int64_t{1} << 21, int64_t{1} << 21,
                                        (int64_t{1} << 24) + (int64_t{1} << 21), "dense-row")}) {}
};

HPCJUDGE_REGISTER_PROBLEM(SpmvCpu);

}  // namespace
}  // namespace hpcjudge
