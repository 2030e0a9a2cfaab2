// bfs-cpu: breadth-first search levels from a source on the CPU with OpenMP: the bfs family's graphs, fresh
// sources and exact check (problems/families/sparse/bfs_description.h), with performance cases sized for a laptop.
#include "solve.h"

#include "problems/families/sparse/bfs_description.h"

namespace hpcjudge {
namespace {

struct BfsCpu final : BfsProblem<decltype(solve)> {
  BfsCpu()
      : BfsProblem({.slug = "bfs-cpu",
                    .title = "Breadth-first search levels (CPU, OpenMP, CSR graph)",
                    .kind = Kind::CPU,
                    .source_ext = "cpp",
                    .points = {.correctness = 40, .performance = 60},
                    .timing = {.budget_s = 2.0},
                    // A floor, as bfs's: 5% of the copy bandwidth on R-MAT by the model of every edge read once
                    // (the fast reference reached 10% of a 2-core VM's 71 GB/s in make bench); none on the grid,
                    // whose levels no BFS streams.
                    .bench_targets = {{"peak", 0.05, "rmat-20"}}},
                   bfs_tests(), {bfs_cases::rmat(20), bfs_cases::grid(1024, 1024)}) {}
};

HPCJUDGE_REGISTER_PROBLEM(BfsCpu);

}  // namespace
}  // namespace hpcjudge
