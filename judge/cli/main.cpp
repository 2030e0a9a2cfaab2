// The judge command.
//   judge list                                   problems, kind, points, runnable here
//   judge all [--no-bench] [--seed S]            grade every problem's solution.* (make judge)
//   judge SLUG [FILE] [--json OUT] [--gradescope OUT] [--junit OUT] [--verbose] [--seed S | --seed-file F] [--no-bench] [--threads T] [--device N]
//              [--sanitize] [--sandbox]
//   judge batch DIR [--out RESULTS] [--force] [--regrade-noisy] [--problems a,b] [--junit] [--seed-file F] [--no-bench] [--slurm ...]
//   judge leaderboard RESULTS
//   judge profile SLUG [FILE] [--case NAME]         one performance case under ncu (GPU) or perf stat (CPU)
//   judge pack [SLUG | SLUG=FILE ...] -o FILE [--name NAME]
// Exit status: 0 only on AC (for `all`: every problem AC or SKIP), 1 on any
// other verdict, 2 on bad usage.
#include <fcntl.h>
#include <sched.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <charconv>
#include <cstring>
#include <optional>

#include "reference/matmul.h"
#include "judge/classroom/batch.h"
#include "judge/files.h"
#include "judge/measure/bench.h"
#include "settings/settings.h"
#include "judge/measure/gpu.h"
#include "judge/grading/grade.h"
#include "harness/generators.h"
#include "judge/reports/course.h"
#include "judge/statements/statements.h"
#include "judge/reports/human.h"
#include "judge/classroom/leaderboard.h"
#include "judge/classroom/pack.h"
#include "judge/isolation/family.h"
#include "judge/isolation/sandbox.h"
#include "judge/grading/compile.h"
#include "judge/isolation/process.h"
#include "judge/measure/machine.h"
#include "judge/measure/profile.h"
#include "judge/suggest.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr size_t kMaxSeedFileBytes = 4096;

const Problem& find_problem(const std::string& slug) {
  if (const Problem* p = Registry::find(slug)) return *p;
  std::vector<std::string> slugs;
  for (const Problem* p : Registry::all()) slugs.push_back(p->info().slug);
  std::string msg = "unknown problem '" + slug + "'";
  if (const auto near = closest(slug, slugs); !near.empty()) msg += "; did you mean " + one_of(near) + "?";
  throw UsageError(msg + " ('judge list' shows them all)");
}

// "unknown option '--threds'; did you mean --threads?" for each of `extras` that is a misspelt option of `app`
// (joined by "; "), or "".
std::string option_guesses(const CLI::App& app, const std::vector<std::string>& extras) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden: what a batch tells its child judges
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  std::string out;
  for (const std::string& e : extras) {
    if (e.size() < 2 || e[0] != '-') continue;
    const std::string word = e.substr(0, e.find('='));
    if (const auto near = closest(word, names); !near.empty())
      out += (out.empty() ? "" : "; ") + ("unknown option '" + word + "'; did you mean ") + one_of(near) + "?";
  }
  return out;
}

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

fs::path default_solution(const Problem& p, const Paths& paths) {
  return paths.problem_dir(p.info().slug) / ("solution." + p.info().source_ext);
}

// FILE: a regular file (a symbolic link of the judge's user's or root's is followed to one; in a batch's
// participant folder, `folder`, the file itself must be one, inside it).
void check_source(const Problem& p, const fs::path& file, const fs::path& folder) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)) || (folder.empty() && !fs::exists(file, ec)))
    throw UsageError(file.string() + ": no such file");
  if (fs::is_directory(file, ec)) throw UsageError(file.string() + ": is a directory, not a source file");
  std::string why = folder.empty() ? unfollowed_link(file) : not_a_regular_file(file, folder);
  if (why.empty() && folder.empty()) why = not_a_regular_file(fs::canonical(file, ec));
  if (!why.empty()) throw UsageError(why);
  if (access(file.c_str(), R_OK) != 0) throw UsageError(file.string() + ": cannot be read (permission denied)");
  if (fs::file_size(file, ec) == 0) throw UsageError(file.string() + ": is empty");
  if (fs::file_size(file, ec) > kMaxSourceBytes)
    throw UsageError(file.string() + ": is larger than a source file may be (" + std::to_string(kMaxSourceBytes >> 20) +
                     " MiB)");
  const std::string ext = file.extension().string();
  const bool cpp = ext == ".cpp" || ext == ".cc" || ext == ".cxx";
  if (p.info().source_ext == "cpp" && !cpp)
    throw UsageError(p.info().slug + " takes a C++ file (.cpp), not " + file.filename().string());
  if (p.info().source_ext == "cu" && ext != ".cu")
    throw UsageError(p.info().slug + " takes a CUDA file (.cu), not " + file.filename().string());
}

// A seed: a decimal number from 0 to 2^64 - 1, nothing else.
uint64_t parse_seed(const std::string& text, const std::string& what) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || ec != std::errc() ||
      end != text.data() + text.size())
    throw UsageError(what + " must be a whole number from 0 to 18446744073709551615, not '" + text + "'");
  return v;
}

// The secret seed a batch hands its child judges (never on a command line, where
// /proc/PID/cmdline shows it to every process): taken from the environment and
// scrubbed from it, and from the memory /proc/PID/environ shows, before anything starts.
std::optional<std::string> take_secret_seed() { return settings::take(settings::kSecretSeed); }

int cmd_list(const Paths& paths, int device) {
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

int cmd_all(const Paths& paths, GradeOptions opt) {
  const Style style = Style::detect(stdout);
  int bad = 0;
  for (const Problem* p : Registry::all()) {
    Listener quiet;
    if (style.tty) std::printf("grading %s...", p->info().slug.c_str()), std::fflush(stdout);
    const Report r = grade(*p, default_solution(*p, paths), opt, paths, quiet);
    if (style.tty) std::printf("\r\033[K");
    std::printf("%s\n", summary_line(r, style).c_str());
    std::fflush(stdout);
    bad += r.verdict != Verdict::AC && r.verdict != Verdict::SKIP;
  }
  return bad ? 1 : 0;
}

// The files a grading writes besides the terminal's report.
struct Outputs {
  std::string json, gradescope, junit;
};

int cmd_grade(const Paths& paths, const std::string& slug, const std::string& file, const Outputs& out,
              const GradeOptions& opt, const HumanOptions& human) {
  const Problem& p = find_problem(slug);
  const fs::path src = file.empty() ? default_solution(p, paths) : fs::path(file);
  check_source(p, src, opt.folder);
  for (const std::string& target : {out.json, out.gradescope, out.junit})
    if (!target.empty()) try {
        check_can_write(target);
      } catch (const FileRefused& e) {
        throw UsageError(e.what());
      }
  HumanPrinter printer(p, Style::detect(stdout), human);
  const Report r = grade(p, src, opt, paths, printer);
  printer.finished(r);
  const nlohmann::json j = r.to_json();
  const auto dump = [](const nlohmann::json& v) { return v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; };
  if (!out.json.empty()) write_file_atomically(out.json, dump(j));
  if (!out.gradescope.empty()) write_file_atomically(out.gradescope, dump(gradescope_results(p, j)));
  if (!out.junit.empty())
    write_file_atomically(out.junit, junit_document("hpcjudge: " + fs::path(src).filename().string(),
                                                    {junit_testsuite(p, j)}));
  // The latest report of each problem names the file `judge pack` hands in by default, and each file's own last
  // report goes with it, whichever was judged later (a batch's child judge and a secret seed keep theirs to the
  // batch).
  // A judge error (JE) is no grade of the file: never kept as its latest.
  if (!opt.seed_secret && opt.participant.empty() && r.verdict != Verdict::JE) {
    const std::string warning = save_local_report(paths, p.info().slug, r.source_path, dump(j));
    if (!warning.empty()) std::fprintf(stderr, "%s\n", terminal_text(warning).c_str());
  }
  return r.verdict == Verdict::AC ? 0 : 1;
}

// `judge profile`: one performance case under ncu (GPU) or perf stat (CPU), then a
// summary; the tool's full output kept under .hpcjudge/profiles/.
int cmd_profile(const Paths& paths, const std::string& slug, const std::string& file, std::string case_name,
                GradeOptions opt) {
  const Problem& p = find_problem(slug);
  const fs::path src = file.empty() ? default_solution(p, paths) : fs::path(file);
  check_source(p, src, {});
  const std::vector<Case> cases = p.benchmarks();
  const MachineInfo machine = probe_machine(opt.threads);
  std::string names;
  for (const Case& c : cases) names += (names.empty() ? "" : ", ") + c.name;
  if (case_name.empty()) case_name = largest_case_here(p, machine.cores);
  if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return c.name == case_name; }))
    throw UsageError("no performance case '" + case_name + "' in " + slug + " (its cases: " + names + ")");
  const bool gpu = p.info().kind == Kind::GPU;
  // The runner may run as a user of its own: the tool writes into a folder open to it.
  std::string tmpl = (fs::temp_directory_path() / "hpcjudge-profile-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder");
  const fs::path tmp = tmpl;
  fs::permissions(tmp, fs::perms::all);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() { std::error_code ec; fs::remove_all(dir, ec); }
  } cleanup{tmp};
  const std::string base = slug + "-" + case_name;
  std::string tool;
  if (gpu) {
    if (nvcc_path().empty()) throw UsageError("the judge was built without the CUDA toolkit: no GPU problem runs here");
    const GpuProbe& g = probe_gpu(paths, opt.device);
    if (!g.usable()) throw UsageError(no_device_message(g) + "; nothing to profile");
    tool = cuda_tool_path("ncu");
    if (tool.empty())
      throw UsageError("Nsight Compute (ncu) is not installed here (NVIDIA's nsight-compute package, or ncu on PATH); "
                       "`judge " + slug + "` still lists each kernel's registers, spills and occupancy");
    // The submission's own kernels, by name, so the judge's kernels are never profiled.
    fs::create_directory(tmp / "names");
    const CompileResult cr = compile_submission(p, paths, read_regular_file(fs::canonical(src), kMaxSourceBytes),
                                                tmp / "names",
                                                {.arch = g.device.value("arch", "sm_90"), .source_name = src.string()});
    if (!cr.ok) {
      std::printf("CE  %s\n%s", terminal_text(cr.message).c_str(), terminal_text(cr.log).c_str());
      return 1;
    }
    std::vector<std::string> mangled;
    for (const KernelResources& k : cr.kernels) mangled.push_back(k.mangled);
    // ncu keeps its settings under $HOME: the runner's own user (as root) may write only the profile's folder.
    // The runner marks its calls of solve() for ncu's filter (harness/profiler_range.h).
    opt.runner_prefix = {"env", std::string(settings::kHome.name) + "=" + tmp.string(),
                         std::string(settings::kProfileRange.name) + "=1"};
    for (auto& a : ncu_prefix(tool, mangled, static_cast<int>(mangled.size()), tmp / base))
      opt.runner_prefix.push_back(std::move(a));
  } else {
    tool = perf_path();
    if (tool.empty()) throw UsageError("perf is not installed here (apt-get install linux-perf): nothing to profile with");
    // The runner measures its CPU time over each call of solve() (harness/profiler_range.h): perf's task-clock
    // spans its whole life, mostly waiting between calls.
    opt.runner_prefix = {"env", std::string(settings::kProfileRange.name) + "=1"};
    for (auto& a : perf_prefix(tool, tmp / (base + ".perf.csv"))) opt.runner_prefix.push_back(std::move(a));
  }
  opt.only_case = case_name;
  opt.bench = true;
  opt.score = false;
  std::printf("profiling %s, performance case %s, under %s\n", slug.c_str(), case_name.c_str(), tool.c_str());
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
  if (gpu) {
    const fs::path rep = tmp / (base + ".ncu-rep");
    if (!fs::exists(rep)) {
      std::printf("  ncu wrote no report; its output:\n%s", submission_output(r, 40).c_str());
      return 1;
    }
    const RunResult csv = run_command({tool, "--import", rep.string(), "--csv", "--page", "raw"}, 600, 64 << 20);
    const std::vector<NcuKernel> kernels = parse_ncu_raw_csv(csv.output);
    if (kernels.empty()) std::printf("  ncu --import found no kernel in the report:\n%s\n", terminal_text(csv.output.substr(0, 2000)).c_str());
    for (const NcuKernel& k : kernels) {
      std::printf("  kernel %s\n", terminal_safe(k.name).c_str());
      for (const std::string& line : ncu_summary(k)) std::printf("    %s\n", line.c_str());
    }
    kept = keep / (base + ".ncu-rep");
    fs::copy_file(rep, kept, fs::copy_options::overwrite_existing, ec);
  } else {
    const fs::path out = tmp / (base + ".perf.csv");
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const BenchResult& b = r.bench.front();
    std::optional<SolveCpus> solve;
    if (b.cpus_busy) solve = SolveCpus{*b.cpus_busy, b.cpus_waited_for.value_or(0), machine.threads};
    for (const std::string& line : perf_summary(parse_perf_stat_csv(text), solve)) std::printf("    %s\n", line.c_str());
    kept = keep / (base + ".perf.csv");
    fs::copy_file(out, kept, fs::copy_options::overwrite_existing, ec);
  }
  // The problem's own speed-of-light line, from the judge's timing (with the profiler attached).
  const BenchResult& b = r.bench.front();
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
  if (ec) std::printf("  could not keep the full report under %s: %s\n", keep.c_str(), ec.message().c_str());
  else if (gpu) std::printf("  full report: %s (open it in Nsight Compute: ncu-ui %s)\n", kept.c_str(), kept.c_str());
  else std::printf("  perf's counts: %s\n", kept.c_str());
  return 0;
}

// The options every grading command shares, and what they settle after parsing.
struct GradingFlags {
  GradeOptions opt;
  bool no_bench = false, no_side_by_side = false;
  bool emulate_on = false, emulate_off = false;
  std::string seed, seed_file;
  std::optional<std::string> secret_seed;  // handed down by a batch (take_secret_seed)
  bool per_file = true;  // one file's options (not a batch's)
  void add_to(CLI::App& app, bool per_file = true) {
    this->per_file = per_file;
    app.add_option("--seed", seed, "input seed, 0 to 2^64-1 (default: the public seed 42)");
    app.add_option("--seed-file", seed_file, "read the (secret) seed from this file; reports never show it");
    app.add_flag("--no-bench", no_bench, "skip the performance cases (correctness points only)");
    auto* unsafe = app.add_flag("--unsafe-no-isolation", opt.unisolated,
                                "grade without root and without the sandbox, each submission free to change the "
                                "others' files (every report says so)");
    if (!per_file) return;
    unsafe->group("");  // for one file, only what a batch tells its child judges
    app.add_option("--threads", opt.threads, "OpenMP threads for the submission (default: every core)")
        ->check(CLI::Range(1, 4096));
    app.add_option("--device", opt.device, "the CUDA device for GPU problems (default 0)")->check(CLI::Range(0, 1024));
    app.add_flag("--sanitize", opt.sanitize, "run compute-sanitizer memcheck on the functional tests (GPU problems)");
    auto* emulate = app.add_flag("--emulate", emulate_on,
                                 "GPU problems: run the functional tests on the CPU (CUDA emulation: correctness, "
                                 "with race, barrier and bounds checks; no timing); the default without a usable GPU");
    app.add_flag("--no-emulate", emulate_off, "GPU problems: never emulate (SKIP where there is no usable GPU)")
        ->excludes(emulate);
    app.add_flag("--sandbox", opt.sandbox,
                 "run the submission under bubblewrap: no network, read-only files but a private /tmp");
    app.add_flag("--no-side-by-side", no_side_by_side,
                 "score against the cached reference times only, without timing the fast reference beside each run");
    // What a batch tells its child judges.
    app.add_option("--participant-folder", opt.folder, "")->group("");
    app.add_option("--participant-name", opt.participant, "")->group("");
    app.add_option("--hide", opt.hidden, "")->group("");
  }
  // After parsing: the seed file read, the flags checked.
  void settle() {
    opt.bench = !no_bench;
    opt.side_by_side = !no_side_by_side;
    if (emulate_on && !emulator_built())
      throw UsageError("--emulate needs the CUDA emulator, which is built on x86-64 only");
    opt.emulation = emulate_on ? Emulation::On : emulate_off ? Emulation::Off : Emulation::Auto;
    // Under emulation --sanitize is the emulator's leak check, which needs no compute-sanitizer.
    const bool emulating = emulate_on || (nvcc_path().empty() && !emulate_off && emulator_built());
    if (opt.sanitize && compute_sanitizer_path().empty() && !emulating)
      throw UsageError(std::string("--sanitize needs compute-sanitizer (from the CUDA toolkit), which is not installed here") +
                       (emulator_built() ? "; --emulate --sanitize runs the CPU emulation's checks instead" : ""));
    if (opt.sandbox && bubblewrap_path().empty())
      throw UsageError("--sandbox needs bubblewrap (apt-get install bubblewrap), which is not installed here");
    if (!seed.empty()) opt.seed = parse_seed(seed, "--seed");
    if (secret_seed) {
      opt.seed = parse_seed(*secret_seed, "the secret seed");
      opt.seed_secret = true;
    }
    if (seed_file.empty()) return;
    if (!seed.empty()) throw UsageError("--seed and --seed-file: give one of them");
    std::string text;
    try {
      std::error_code ec;
      const fs::path real = fs::canonical(seed_file, ec);
      if (ec) throw FileRefused(seed_file + ": " + ec.message());
      seed_file = real.string();
      if (const std::string why = not_a_regular_file(seed_file); !why.empty()) throw FileRefused(why);
      text = read_regular_file(seed_file, kMaxSeedFileBytes);
    } catch (const FileRefused& e) {
      throw UsageError(std::string("--seed-file: ") + e.what());
    }
    // Hidden from every runner and compiler, whatever its mode: under the sandbox a mount over it, without it
    // Landlock (harness/confine.h; a batch hides it in each child judge, by the path it is found at).
    opt.hidden.push_back(seed_file);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (text.empty()) throw UsageError(seed_file + ": the seed file is empty");
    // A number is the seed; any other text is hashed into one.
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    opt.seed = ec == std::errc() && end == text.data() + text.size()
                   ? v
                   : gen::fnv1a(std::as_bytes(std::span(text.data(), text.size())));
    opt.seed_secret = true;
    if (per_file) warn_if_seed_in_reach(opt.sandbox);
  }
  // Without the sandbox the seed file is hidden by Landlock (harness/confine.h); where the kernel has none, says
  // who could read it: the judge's own user (a runner as an ordinary user's), or every user where its mode lets
  // them (a runner as root's, a user of its own).
  void warn_if_seed_in_reach(bool sandbox) const {
    if (seed_file.empty() || sandbox || syscall(SYS_landlock_create_ruleset, nullptr, 0, 1u) >= 1) return;
    struct stat st {};
    const bool others_read = stat(seed_file.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0;
    if (geteuid() != 0)
      std::fprintf(stderr, "warning: %s: this kernel has no Landlock to hide the seed file from the submission, "
                   "which runs as you without the sandbox: grade with --sandbox\n", terminal_safe(seed_file).c_str());
    else if (others_read)
      std::fprintf(stderr, "warning: %s: other users may read the seed file, and this kernel has no Landlock to "
                   "hide it from the submission without the sandbox: chmod 600 it, or grade with --sandbox\n",
                   terminal_safe(seed_file).c_str());
  }
};

// Parses; a help request prints the help (exit 0), a bad command line one line (exit 2).
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {  // a misspelt option: the likely one named
    const std::string guesses = option_guesses(app, app.remaining());
    std::fprintf(stderr, "judge: %s (see %s --help)\n", terminal_text(guesses.empty() ? e.what() : guesses).c_str(),
                 app.get_name().c_str());
    return 2;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "judge: %s (see %s --help)\n", terminal_text(e.what()).c_str(), app.get_name().c_str());
    return 2;
  }
}

int run(int argc, char** argv) {
  GradingFlags flags;
  flags.secret_seed = take_secret_seed();
  const Paths paths = Paths::discover();
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "list") {
    CLI::App app{"List the problems: kind, points, and whether this machine can run them.", "judge list"};
    app.add_option("--device", flags.opt.device, "the CUDA device to look at (default 0)")->check(CLI::Range(0, 1024));
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    return cmd_list(paths, flags.opt.device);
  }
  if (cmd == "all") {
    CLI::App app{"Grade every problem's own solution file; one line per problem.", "judge all"};
    flags.add_to(app);
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    flags.settle();
    return cmd_all(paths, flags.opt);
  }
  if (cmd == "batch") {
    CLI::App app{"Grade a class: DIR holds a folder per participant with files named by problem slug "
                 "(softmax-cpu.cpp, vector-add.cu, ...). Reports go to RESULTS/<participant>/<slug>.json as they "
                 "finish (an interrupted batch resumes), then the leaderboard.",
                 "judge batch"};
    BatchOptions b;
    app.add_option("dir", b.dir, "the class folder")->required();
    app.add_option("--out", b.out, "the results folder (default: ./results)");
    app.add_flag("--force", b.force, "regrade every file, current reports too");
    app.add_flag("--regrade-noisy", b.regrade_noisy,
                 "grade the current reports timed on a busy machine (noisy) once more, at the end");
    std::string problems;
    app.add_option("--problems", problems,
                   "the class's problems, comma-separated (default: DIR/class.json's list, else any problem): only "
                   "these are graded, and they fix the leaderboard's columns and maximum");
    app.add_flag("--junit", b.junit, "also write RESULTS/<participant>/junit.xml, a JUnit report per participant");
    flags.add_to(app, false);
    app.add_option("--participant", b.participant, "grade only this participant (no leaderboard)");
    bool no_sandbox = false;
    app.add_flag("--no-sandbox", no_sandbox, "grade without bubblewrap (the default where it is installed)");
    bool no_emulate = false;
    app.add_flag("--no-emulate", no_emulate,
                 "GPU problems without a usable GPU: SKIP (compiled only) instead of CPU emulation, which grades "
                 "them as `judge SLUG FILE` does (correctness only; reports say emulated)");
    app.add_flag("--slurm", b.slurm, "submit a Slurm job array (a task per participant) instead of grading here");
    app.add_option("--partition", b.slurm_options.partition, "Slurm partition");
    app.add_option("--gres", b.slurm_options.gres, "Slurm generic resources per task, e.g. gpu:1");
    app.add_option("--throttle", b.slurm_options.throttle, "at most this many array tasks at once")
        ->check(CLI::Range(1, 100000));
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    flags.settle();
    if (b.out.empty()) b.out = "results";
    for (size_t at = 0; !problems.empty() && at <= problems.size();) {
      const size_t end = std::min(problems.find(',', at), problems.size());
      const std::string slug = problems.substr(at, end - at);
      at = end + 1;
      if (slug.empty()) continue;
      find_problem(slug);  // an unknown one is a usage error, with a guess
      if (std::find(b.problems.begin(), b.problems.end(), slug) == b.problems.end()) b.problems.push_back(slug);
    }
    if (!problems.empty() && b.problems.empty()) throw UsageError("--problems: no problem named");
    b.bench = flags.opt.bench;
    b.emulate = !no_emulate;
    b.sandbox = !no_sandbox && !bubblewrap_path().empty();
    b.unisolated = flags.opt.unisolated;
    // Without root the runner cannot get a user of its own: only the sandbox keeps one participant's code
    // from another's files and reports.
    if (!b.sandbox && geteuid() != 0 && !b.unisolated && !b.slurm)
      throw UsageError(std::string(no_sandbox ? "--no-sandbox" : "bubblewrap is not installed") +
                       " and the judge is not root: every submission would run as you, free to change the others' "
                       "reports and files; install bubblewrap (apt-get install bubblewrap) or, knowing that, give "
                       "--unsafe-no-isolation");
    if (!no_sandbox && !b.sandbox && b.participant.empty())
      std::fprintf(stderr, "warning: bubblewrap is not installed: submissions run without the sandbox\n");
    flags.warn_if_seed_in_reach(b.sandbox);
    b.seed_file = flags.seed_file;
    if (!b.seed_file.empty()) b.seed_file = fs::absolute(b.seed_file).string();
    if (flags.opt.seed_secret) b.secret_seed = flags.opt.seed;
    try {
      return run_batch(paths, b);
    } catch (const SlurmError& e) {
      throw UsageError(e.what());
    } catch (const fs::filesystem_error& e) {
      throw UsageError(e.what());
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  if (cmd == "bench") {
    CLI::App app{"Time every problem's baseline and fast reference solutions and its vendor anchor side by side "
                 "(reference/solutions/<slug>/{baseline,fast,vendor}.*); print one table and write it under "
                 "bench/results/ as JSON and Markdown.",
                 "judge bench"};
    BenchOptions b;
    app.add_option("slugs", b.slugs, "only these problems (default: every problem this machine can run)");
    app.add_option("--out", b.out, "the results folder (default: bench/results)");
    app.add_option("--name", b.name, "the results' file name (default: from the GPU or CPU model)");
    app.add_option("--device", flags.opt.device, "the CUDA device (default 0)")->check(CLI::Range(0, 1024));
    app.add_option("--threads", flags.opt.threads, "OpenMP threads (default: every core)")->check(CLI::Range(1, 4096));
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    flags.settle();
    for (const auto& s : b.slugs)
      if (!Registry::find(s)) throw UsageError("no problem named " + s);
    return run_bench_table(paths, flags.opt, b);
  }
  if (cmd == "leaderboard") {
    CLI::App app{"Write RESULTS/leaderboard.{html,md,csv,json} from the reports in RESULTS.", "judge leaderboard"};
    std::string results;
    app.add_option("results", results, "the results folder of a batch")->required();
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    if (!fs::is_directory(results)) throw UsageError(results + ": no such folder");
    try {
      std::printf("%s\n", terminal_safe(write_leaderboard(results).summary()).c_str());
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
    return 0;
  }
  if (cmd == "profile") {
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
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    flags.settle();
    return cmd_profile(paths, slug, file, case_name, flags.opt);
  }
  if (cmd == "pack") {
    CLI::App app{"Bundle, for each problem, the file you last judged (or SLUG=FILE), named by slug, with its "
                 "report and a manifest into FILE, in the layout `judge batch` reads.",
                 "judge pack"};
    PackOptions p;
    app.add_option("slugs", p.slugs,
                   "the problems, each SLUG (the file you last judged for it) or SLUG=FILE (default: every problem "
                   "you have judged)");
    app.add_option("-o,--output", p.out, "the archive to write, e.g. alice.tar.gz")->required();
    app.add_option("--name", p.name, "your name as staff will see it (default: git user.name, else $USER)");
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    try {
      std::printf("%s\n", terminal_text(make_pack(paths, p)).c_str());
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
    return 0;
  }
  if (cmd == "statements") {  // for the problems' authors: not in the students' help below
    CLI::App app{"The statements' shared sections (problems/statements/<lang>.md, filled from each problem's "
                 "description) against every problems/<slug>/README*.md: --check lists the READMEs that differ "
                 "(exit 1), --write rewrites their shared blocks.",
                 "judge statements"};
    bool write = false, check = false;
    app.add_flag("--check", check, "compare only (the default)");
    app.add_flag("--write", write, "rewrite every README's shared blocks from the sources");
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    std::vector<std::string> lines;
    const int wrong = check_statements(paths, write, lines);
    for (const std::string& line : lines) std::printf("%s\n", line.c_str());
    if (wrong == 0 && !write) std::printf("every statement's shared sections match their sources\n");
    return wrong == 0 ? 0 : 1;
  }
  CLI::App app{"hpcjudge: compile, run, check, time and score a solution.\n"
               "  judge list                 the problems\n"
               "  judge all                  grade every problem's problems/<slug>/solution.*\n"
               "  judge SLUG [FILE]          grade FILE (default problems/SLUG/solution.*)\n"
               "  judge profile SLUG [FILE]  one performance case under ncu or perf stat, summarised\n"
               "  judge pack -o FILE         bundle your solutions to hand in\n"
               "  judge batch DIR            grade a class (staff); judge leaderboard RESULTS\n"
               "  judge bench [SLUG...]      baseline, fast reference and vendor anchor side by side",
               "judge"};
  std::string slug, file;
  Outputs outputs;
  app.add_option("slug", slug, "the problem, e.g. softmax-cpu")->required();
  app.add_option("file", file, "the solution to grade (default: problems/SLUG/solution.cpp or .cu)");
  app.add_option("--json", outputs.json, "also write the report as JSON to this file");
  app.add_option("--gradescope", outputs.gradescope,
                 "also write Gradescope's autograder results (results.json) to this file");
  app.add_option("--junit", outputs.junit, "also write a JUnit XML report to this file (CI, GitHub Classroom)");
  HumanOptions human;
  app.add_flag("-v,--verbose", human.verbose, "a wrong answer's every listed mismatch, not the concise summary");
  flags.add_to(app);
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  return cmd_grade(paths, slug, file, outputs, flags.opt, human);
}

}  // namespace

int main(int argc, char** argv) {
  // Standard input, output or error closed (a job started without them): /dev/null there, or the first files the
  // judge opens would take those numbers, its channel to a runner where the runner's standard input goes (every
  // runner then failed with "mmap arena: Permission denied").
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) < 0) return 2;
  // The judge's own threads (its references' OpenMP and OpenBLAS) must sleep when
  // idle, not spin: a spinning judge thread takes the CPU a resumed runner needs,
  // and the judge's clock would count the wait. OpenBLAS's workers otherwise spin
  // for 2^28 cycles (about 0.1 s) after each reference matmul, through the timed
  // calls that follow it. Both libraries read their setting once, at load: set
  // them and start again.
  // OpenBLAS's kernels likewise, where it took this CPU for an older one (reference/matmul.h): the judge's own
  // references and the runners (matmul-cpu's vendor anchor) inherit the name.
  // And no OpenMP thread bound to a CPU by the environment (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY, which
  // clusters often set for their users): bound at its first parallel region, the judge's own thread kept one CPU,
  // and every thread it started afterwards, every runner among them, inherited that one CPU (with
  // OMP_PROC_BIND=true on the 2-core VM, the submission's and the fast reference's runners each ran on CPU 0
  // alone). Off for the runners too, which inherit this environment: each side of a ratio is as the other, and a
  // rival's threads never bind themselves away from how they started (judge/isolation/scheduling.h). A
  // submission binds its own threads in its code, if it wants them bound.
  using namespace settings;
  const Settings& env = Settings::at_start();  // every variable the judge reads, read now (settings/settings.h)
  const std::optional<std::string> bind = env.get(kOmpProcBind);
  const bool bound = (bind && *bind != "false") || env.is_set(kOmpPlaces) || env.is_set(kGompCpuAffinity);
  const char* coretype = env.is_set(kOpenblasCoretype) ? nullptr : reference::openblas_coretype_to_name();
  const bool wait_policy = env.is_set(kOmpWaitPolicy), thread_timeout = env.is_set(kOpenblasThreadTimeout);
  if (!wait_policy || !thread_timeout || coretype || bound) {
    if (!wait_policy) setenv(kOmpWaitPolicy.name, kOmpWaitPolicy.fallback.data(), 1);
    if (!thread_timeout) setenv(kOpenblasThreadTimeout.name, kOpenblasThreadTimeout.fallback.data(), 1);
    if (coretype) setenv(kOpenblasCoretype.name, coretype, 1);
    if (bound) {
      setenv(kOmpProcBind.name, "false", 1);
      unsetenv(kOmpPlaces.name);
      unsetenv(kGompCpuAffinity.name);
      // OpenMP bound this thread as it loaded, and exec keeps the binding: every CPU back (the kernel keeps
      // those of the cpuset). ./judge/judge unsets the variables before it starts the judge, which keeps a
      // `taskset` it was started under.
      cpu_set_t every;
      CPU_ZERO(&every);
      for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &every);
      sched_setaffinity(0, sizeof every, &every);
    }
    execv("/proc/self/exe", argv);
  }
  // The judge holds the reference answers: a submission running as the same
  // (non-root) user may not read its memory through /proc or ptrace.
  prctl(PR_SET_DUMPABLE, 0);
  // Whatever a runner's processes leave behind (a double fork, setsid) becomes
  // the judge's child, so it is stopped with them between calls and killed at
  // the end (judge/isolation/family.h).
  become_subreaper();
  // Every timed call allocates and frees inputs, reference answers and copies
  // of hundreds of MiB: keep freed memory in the heap for the next call rather
  // than give it back to the kernel (glibc maps large blocks anew each time),
  // so that the judge's own work between timed calls is not mostly page faults.
  // Trimming off (-1), not at INT_MAX: prefix-sum's n256M reference frees 3 GiB a
  // run, past any int threshold, and was faulted back in every run (786,400 minor
  // faults; 1.5-3.6 s a run on the 2-core VM, 0.25 s without; 2.5 s on the H200).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "judge: %s\n", terminal_text(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "judge: internal error (JE, the judge's own fault): %s\n", terminal_text(e.what()).c_str());
    return 1;
  }
}
