// `judge list`: the problems, their kind and points, and whether this machine can run them.
#include <cstdio>

#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/machine/gpu.h"
#include "judge/machine/gpu.h"

namespace hpcjudge::cli {

namespace {

// "" when this machine can run the problem, else why not.
std::string cannot_run(const Problem& p, const Paths& paths, int device) {
  if (p.info().kind == Kind::CPU) return "";
  if (nvcc_path().empty()) return "no CUDA toolkit";
  const GpuProbe& g = probe_gpu(paths, device);
  return g.usable() ? "" : "no CUDA device";
}

// What `judge list` says of a problem this machine cannot run on a GPU.
std::string runnable(const Problem& p, const Paths& paths, int device) {
  const std::string why = cannot_run(p, paths, device);
  if (why.empty()) return "yes";
  return (emulator_built() ? "emulated (" : "no (") + std::string(why == "no CUDA device" ? "no GPU" : why) + ")";
}

int list_problems(const Paths& paths, int device) {
  std::printf("%-20s %-5s %-7s %-22s %s\n", "problem", "kind", "points", "runnable here", "title");
  for (const Problem* p : Registry::all()) {
    const auto& i = p->info();
    std::printf("%-20s %-5s %-7.0f %-22s %s\n", i.slug.c_str(), kind_name(i.kind), i.points.total(),
                runnable(*p, paths, device).c_str(), i.title.c_str());
  }
  if (const GpuProbe& g = probe_gpu(paths, device); g.usable())
    std::printf("GPU %d: %s, %d SMs, driver %s\n", device, g.device.value("name", "").c_str(),
                g.device.value("sm_count", 0), g.device.value("driver", "").c_str());
  return 0;
}

}  // namespace

int judge_list(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"List the problems: kind, points, and whether this machine can run them.", "judge list"};
  app.add_option("--device", flags.opt.device, "the CUDA device to look at (default 0)")->check(CLI::Range(0, 1024));
  if (auto rc = parse(app, argc, argv)) return *rc;
  return list_problems(paths, flags.opt.device);
}

}  // namespace hpcjudge::cli
