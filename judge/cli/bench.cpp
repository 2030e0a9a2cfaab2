// `judge bench [SLUG...]`: the reference solutions timed side by side (judge/machine/bench.h).
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/machine/bench.h"

namespace hpcjudge::cli {

int judge_bench(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"Time every problem's baseline and fast reference solutions and its vendor anchor side by side "
               "(problems/<slug>/solutions/{baseline,fast,vendor}.*); print one table and write it under "
               "bench/results/ as JSON and Markdown.",
               "judge bench"};
  BenchOptions b;
  app.add_option("slugs", b.slugs, "only these problems (default: every problem this machine can run)");
  app.add_option("--out", b.out, "the results folder (default: bench/results)");
  app.add_option("--name", b.name, "the results' file name (default: from the GPU or CPU model)");
  app.add_option("--device", flags.opt.device, "the CUDA device (default 0)")->check(CLI::Range(0, 1024));
  app.add_option("--threads", flags.opt.threads, "OpenMP threads (default: every core)")->check(CLI::Range(1, 4096));
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  for (const auto& s : b.slugs)
    if (!Registry::find(s)) throw UsageError("no problem named " + s);
  return run_bench_table(paths, flags.opt, b);
}

}  // namespace hpcjudge::cli
