// shared-memory-fix: repair the synchronisation of a 16×16 shared-memory tiled
// matmul. The same matmul as matmul-gpu; sizes that are not multiples of the
// tile make both bugs visible, and compute-sanitizer's racecheck and
// synccheck run on the small tests (see `sanitize_tests`).
#include "solve.h"

#include "problems/families/matmul/description.h"

namespace hpcjudge {
namespace {

struct SharedMemoryFix final : MatmulProblem<decltype(solve)> {
  SharedMemoryFix()
      : MatmulProblem({.slug = "shared-memory-fix",
                       .title = "Fix the shared-memory tiled matmul (CUDA)",
                       .kind = Kind::GPU,
                       .source_ext = "cu",
                       .points = {.correctness = 70, .performance = 30},
                       .race_check = true},
                      {matmul_case("1x1x1", 1, 1, 1), matmul_case("16x16x16", 16, 16, 16),
                       matmul_case("17x17x17", 17, 17, 17), matmul_case("15x33x47", 15, 33, 47),
                       matmul_case("32x48x16", 32, 48, 16), matmul_case("31x33x35", 31, 33, 35),
                       matmul_case("100x100x100", 100, 100, 100), matmul_case("tall-1000x3x5", 1000, 3, 5),
                       matmul_case("wide-3x5x1000", 3, 5, 1000), matmul_case("257x263x251", 257, 263, 251),
                       matmul_case("1023x1025x1027", 1023, 1025, 1027)},
                      {matmul_case("square-2048", 2048, 2048, 2048), matmul_case("square-4096", 4096, 4096, 4096)}) {}
};

HPCJUDGE_REGISTER_PROBLEM(SharedMemoryFix);

}  // namespace
}  // namespace hpcjudge
