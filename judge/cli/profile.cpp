// `judge profile SLUG [FILE] [--case NAME]`: one performance case under ncu (GPU) or perf stat (CPU), then a
// summary; the tool's full output kept under .hpcjudge/profiles/.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include "settings/settings.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/estimate/estimate.h"
#include "judge/files.h"
#include "judge/grading/compile.h"
#include "judge/isolation/process.h"
#include "judge/machine/gpu.h"
#include "judge/machine/machine.h"
#include "judge/machine/profile.h"
#include "judge/reports/human.h"

namespace hpcjudge::cli {

namespace fs = std::filesystem;

namespace {

// The case to profile: the one named, else the largest that runs here; a UsageError listing the cases for a
// name that is none of them.
std::string profiled_case(const Problem& p, std::string case_name, const MachineInfo& machine) {
  const std::vector<Case> cases = p.benchmarks();
  std::string names;
  for (const Case& c : cases) names += (names.empty() ? "" : ", ") + c.name;
  if (case_name.empty()) case_name = largest_case_here(p, machine.cores);
  if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return c.name == case_name; }))
    throw UsageError("no performance case '" + case_name + "' in " + p.info().slug + " (its cases: " + names + ")");
  return case_name;
}

// What profiles the case: the tool, and where its output goes (`base`: the file name less its extension).
struct Profiler {
  bool gpu = false;
  std::string tool;
  fs::path tmp;
  std::string base;
};

// ncu on the submission's own kernels, by name, so the judge's kernels are never profiled. False (after saying
// why) where the submission does not compile.
bool attach_ncu(const Problem& p, const Paths& paths, const fs::path& src, Profiler& prof, GradeOptions& opt) {
  if (nvcc_path().empty()) throw UsageError("the judge was built without the CUDA toolkit: no GPU problem runs here");
  const GpuProbe& g = probe_gpu(paths, opt.device);
  if (!g.usable()) throw UsageError(no_device_message(g) + "; nothing to profile");
  prof.tool = cuda_tool_path("ncu");
  if (prof.tool.empty())
    throw UsageError("Nsight Compute (ncu) is not installed here (NVIDIA's nsight-compute package, or ncu on PATH); "
                     "`judge " + p.info().slug + "` still lists each kernel's registers, spills and occupancy");
  fs::create_directory(prof.tmp / "names");
  const CompileResult cr = compile_submission(p, paths, read_regular_file(fs::canonical(src), kMaxSourceBytes),
                                              prof.tmp / "names",
                                              {.arch = g.device.value("arch", "sm_90"), .source_name = src.string()});
  if (!cr.ok) {
    std::printf("CE  %s\n%s", terminal_text(cr.message).c_str(), terminal_text(cr.log).c_str());
    return false;
  }
  std::vector<std::string> mangled;
  for (const KernelResources& k : cr.kernels) mangled.push_back(k.mangled);
  // ncu keeps its settings under $HOME: the runner's own user (as root) may write only the profile's folder.
  // The runner marks its calls of solve() for ncu's filter (protocol/profiler_range.h).
  opt.runner_prefix = {"env", std::string(settings::kHome.name) + "=" + prof.tmp.string(),
                       std::string(settings::kProfileRange.name) + "=1"};
  for (auto& a : ncu_prefix(prof.tool, mangled, static_cast<int>(mangled.size()), prof.tmp / prof.base))
    opt.runner_prefix.push_back(std::move(a));
  return true;
}

void attach_perf(Profiler& prof, GradeOptions& opt) {
  prof.tool = perf_path();
  if (prof.tool.empty())
    throw UsageError("perf is not installed here (apt-get install linux-perf): nothing to profile with");
  // The runner measures its CPU time over each call of solve() (protocol/profiler_range.h): perf's task-clock
  // spans its whole life, mostly waiting between calls.
  opt.runner_prefix = {"env", std::string(settings::kProfileRange.name) + "=1"};
  for (auto& a : perf_prefix(prof.tool, prof.tmp / (prof.base + ".perf.csv"))) opt.runner_prefix.push_back(std::move(a));
}

// ncu's report summarised, kernel by kernel, and kept as `kept`; false where ncu wrote none.
bool summarise_ncu(const Profiler& prof, const Report& r, const fs::path& keep, fs::path& kept, std::error_code& ec) {
  const fs::path rep = prof.tmp / (prof.base + ".ncu-rep");
  if (!fs::exists(rep)) {
    std::printf("  ncu wrote no report; its output:\n%s", submission_output(r, 40).c_str());
    return false;
  }
  const RunResult csv = run_command({prof.tool, "--import", rep.string(), "--csv", "--page", "raw"}, 600, 64 << 20);
  const std::vector<NcuKernel> kernels = parse_ncu_raw_csv(csv.output);
  if (kernels.empty()) std::printf("  ncu --import found no kernel in the report:\n%s\n", terminal_text(csv.output.substr(0, 2000)).c_str());
  for (const NcuKernel& k : kernels) {
    std::printf("  kernel %s\n", terminal_safe(k.name).c_str());
    for (const std::string& line : ncu_summary(k)) std::printf("    %s\n", line.c_str());
  }
  kept = keep / (prof.base + ".ncu-rep");
  fs::copy_file(rep, kept, fs::copy_options::overwrite_existing, ec);
  return true;
}

// perf stat's counts summarised, with the CPUs solve() kept busy, and kept as `kept`.
void summarise_perf(const Profiler& prof, const Report& r, int threads, const fs::path& keep, fs::path& kept,
                    std::error_code& ec) {
  const fs::path out = prof.tmp / (prof.base + ".perf.csv");
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const BenchResult& b = r.bench.front();
  std::optional<SolveCpus> solve;
  if (b.cpus_busy) solve = SolveCpus{*b.cpus_busy, b.cpus_waited_for.value_or(0), threads};
  for (const std::string& line : perf_summary(parse_perf_stat_csv(text), solve)) std::printf("    %s\n", line.c_str());
  kept = keep / (prof.base + ".perf.csv");
  fs::copy_file(out, kept, fs::copy_options::overwrite_existing, ec);
}

// The problem's own speed-of-light line, from the judge's timing (with the profiler attached).
void print_speed_of_light(const BenchResult& b) {
  char sol[256];
  std::snprintf(sol, sizeof sol, "%.1f %s", b.flops > 0 ? b.gflops() : b.gbps(), b.flops > 0 ? "GFLOP/s" : "GB/s");
  std::string line = "    speed of light        median " + format_seconds(b.stats.median) + " over " +
                     std::to_string(b.stats.runs) + " runs, " + sol;
  if (b.percent_of_peak) {
    std::snprintf(sol, sizeof sol, " = %.0f%% of this machine's measured %s", *b.percent_of_peak,
                  b.flops > 0 ? "FP32 FMA rate" : "copy bandwidth");
    line += sol;
  }
  std::printf("%s (the judge's clock, the profiler attached)\n", line.c_str());
}

// The case graded with the profiler attached, then its summary; the exit status.
int profile_case(const Problem& p, const fs::path& src, const Paths& paths, const Profiler& prof,
                 const std::string& case_name, int threads, GradeOptions opt) {
  opt.only_case = case_name;
  opt.bench = true;
  opt.score = false;
  std::printf("profiling %s, performance case %s, under %s\n", p.info().slug.c_str(), case_name.c_str(),
              prof.tool.c_str());
  HumanPrinter printer(p, Style::detect(stdout));
  const Report r = grade(p, src, opt, paths, printer);
  if (r.verdict != Verdict::AC || r.bench.empty()) {
    std::printf("verdict %s: %s\n", verdict_name(r.verdict), terminal_text(r.message).c_str());
    if (!r.output.empty()) std::printf("%s", submission_output(r, 40).c_str());
    return 1;
  }
  const fs::path keep = paths.root / ".hpcjudge" / "profiles";
  std::error_code ec;
  fs::create_directories(keep, ec);
  std::printf("\nprofile summary\n");
  fs::path kept;
  if (prof.gpu) {
    if (!summarise_ncu(prof, r, keep, kept, ec)) return 1;
  } else {
    summarise_perf(prof, r, threads, keep, kept, ec);
  }
  print_speed_of_light(r.bench.front());
  if (ec) std::printf("  could not keep the full report under %s: %s\n", keep.c_str(), ec.message().c_str());
  else if (prof.gpu) std::printf("  full report: %s (open it in Nsight Compute: ncu-ui %s)\n", kept.c_str(), kept.c_str());
  else std::printf("  perf's counts: %s\n", kept.c_str());
  return 0;
}

// A GPU problem profiled without a GPU: under CPU emulation where it is asked for (--emulate), or where no
// usable GPU is here and the emulator is built (as a grade would emulate).
bool profile_emulated(const Paths& paths, const GradeOptions& opt) {
  if (opt.emulation == Emulation::On) return true;
  if (opt.emulation == Emulation::Off || !emulator_built()) return false;
  return nvcc_path().empty() || !probe_gpu(paths, opt.device).usable();
}

// Every kernel's lines of the estimate, the worst `n` by `key` ("wasted_bytes" or "conflicts"), as printed lines.
std::vector<std::string> worst_lines(const nlohmann::json& estimate, const char* key, size_t n) {
  std::vector<std::pair<double, std::string>> all;
  for (const auto& k : estimate.value("kernels", nlohmann::json::array()))
    for (const auto& l : k.value("lines", nlohmann::json::array()))
      if (l.value(key, 0.0) > 0) {
        char buf[400];
        std::snprintf(buf, sizeof buf, "    %s:%d (%s)  %.4g %s", terminal_text(l.value("file", std::string())).c_str(),
                      l.value("line", 0), terminal_safe(k.value("name", std::string())).c_str(), l.value(key, 0.0),
                      std::string(key) == "conflicts" ? "conflict cycles" : "bytes wasted");
        all.push_back({l.value(key, 0.0), buf});
      }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < all.size() && i < n; ++i) out.push_back(all[i].second);
  return out;
}

// The emulated figures: the functional tests under emulation, counted on the largest emulable one, and the
// estimate's figures per kernel, then the lines that waste the most bytes and conflict the most.
int profile_without_gpu(const Problem& p, const fs::path& src, const Paths& paths, const std::string& case_asked,
                        GradeOptions opt) {
  opt.emulation = Emulation::On;
  opt.bench = opt.score = true;  // the estimate is made where a measured grade would time
  if (!case_asked.empty())
    std::printf("--case %s: without a GPU the estimate models the largest performance case\n", case_asked.c_str());
  std::printf("profiling %s under CPU emulation (no usable GPU here): the emulator's counts, and the time they "
              "give on a modelled GPU\n", p.info().slug.c_str());
  HumanPrinter printer(p, Style::detect(stdout));
  const Report r = grade(p, src, opt, paths, printer);
  if (r.verdict != Verdict::AC || !r.estimate.is_object()) {
    std::printf("verdict %s: %s\n", verdict_name(r.verdict), terminal_text(r.message).c_str());
    return 1;
  }
  std::printf("\nemulated profile (counts from test %s, scaled to %s; times are the model's, not measured)\n",
              terminal_text(r.estimate.value("emulated_case", std::string())).c_str(),
              terminal_text(r.estimate.value("modelled_case", std::string())).c_str());
  for (const std::string& line : estimate_lines(r.estimate, 0)) std::printf("%s\n", line.c_str());
  const std::pair<const char*, const char*> lists[] = {{"wasted_bytes", "lines by bytes moved but not asked for"},
                                                       {"conflicts", "lines by shared-memory bank conflicts"}};
  for (const auto& [key, title] : lists) {
    const std::vector<std::string> lines = worst_lines(r.estimate, key, 5);
    std::printf("  top %s:%s\n", title, lines.empty() ? " none" : "");
    for (const std::string& l : lines) std::printf("%s\n", l.c_str());
  }
  return 0;
}

int profile(const Paths& paths, const std::string& slug, const std::string& file, const std::string& case_asked,
            GradeOptions opt) {
  const Problem& p = find_problem(slug);
  const fs::path src = file.empty() ? default_solution(p, paths) : fs::path(file);
  check_source(p, src, {});
  if (p.info().kind == Kind::GPU && profile_emulated(paths, opt))
    return profile_without_gpu(p, src, paths, case_asked, opt);
  const MachineInfo machine = probe_machine(opt.threads);
  const std::string case_name = profiled_case(p, case_asked, machine);
  // Open to every user (the runner may run as a user of its own: the tool writes into it), removed with its files.
  const TempDir folder(fs::perms::all);
  Profiler prof{.gpu = p.info().kind == Kind::GPU, .tool = "", .tmp = folder.path, .base = slug + "-" + case_name};
  if (prof.gpu) {
    if (!attach_ncu(p, paths, src, prof, opt)) return 1;
  } else {
    attach_perf(prof, opt);
  }
  return profile_case(p, src, paths, prof, case_name, machine.threads, opt);
}

}  // namespace

int judge_profile(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"Run one performance case of FILE under Nsight Compute (GPU problems; ncu) or perf stat (CPU "
               "problems) and print a summary: duration, memory and compute throughput as % of peak, achieved "
               "occupancy, the top stall reasons (GPU), or the CPUs solve() kept busy, IPC and cache misses (CPU), and the "
               "problem's speed-of-light line. The full report is kept under .hpcjudge/profiles/.",
               "judge profile"};
  std::string slug, file, case_name;
  app.add_option("slug", slug, "the problem, e.g. matmul-gpu")->required();
  app.add_option("file", file, "the solution (default: problems/SLUG/solution.*)");
  app.add_option("--case", case_name, "the performance case (default: the largest that runs here)");
  flags.add_to(app);
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  return profile(paths, slug, file, case_name, flags.opt);
}

}  // namespace hpcjudge::cli
