// The judge command.
//   judge list                                   problems, kind, points, runnable here
//   judge all [--no-bench] [--seed S]            grade every problem's solution.* (make judge)
//   judge SLUG [FILE] [--json OUT] [--seed S] [--no-bench] [--threads T] [--device N] [--sanitize]
// Exit status: 0 only on AC (for `all`: every problem AC or SKIP), 1 on any
// other verdict, 2 on bad usage.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "gpu.h"
#include "grade.h"
#include "human.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

const Problem& find_problem(const std::string& slug) {
  if (const Problem* p = Registry::find(slug)) return *p;
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const Problem* p : Registry::all()) {
    const size_t d = edit_distance(slug, p->info().slug);
    if (d < best_d) best_d = d, best = p->info().slug;
  }
  std::string msg = "unknown problem '" + slug + "'";
  if (best_d <= std::max<size_t>(3, slug.size() / 3)) msg += "; did you mean '" + best + "'?";
  throw UsageError(msg + " ('judge list' shows them all)");
}

// "" when this machine can run the problem, else why not.
std::string cannot_run(const Problem& p, const Paths& paths, int device) {
  if (p.info().kind == Kind::CPU) return "";
  if (nvcc_path().empty()) return "no CUDA toolkit";
  const GpuProbe& g = probe_gpu(paths, device);
  return g.usable() ? "" : "no CUDA device";
}

fs::path default_solution(const Problem& p, const Paths& paths) {
  return paths.problem_dir(p.info().slug) / ("solution." + p.info().source_ext);
}

void check_source(const Problem& p, const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw UsageError(file.string() + ": no such file");
  if (fs::is_directory(file, ec)) throw UsageError(file.string() + ": is a directory, not a source file");
  if (access(file.c_str(), R_OK) != 0) throw UsageError(file.string() + ": cannot be read (permission denied)");
  if (fs::file_size(file, ec) == 0) throw UsageError(file.string() + ": is empty");
  const std::string ext = file.extension().string();
  const bool cpp = ext == ".cpp" || ext == ".cc" || ext == ".cxx";
  if (p.info().source_ext == "cpp" && !cpp)
    throw UsageError(p.info().slug + " takes a C++ file (.cpp), not " + file.filename().string());
  if (p.info().source_ext == "cu" && ext != ".cu")
    throw UsageError(p.info().slug + " takes a CUDA file (.cu), not " + file.filename().string());
}

void check_writable(const fs::path& out) {
  const bool existed = fs::exists(out);
  {
    std::ofstream f(out, std::ios::app);
    if (!f) throw UsageError(out.string() + ": cannot write the report there");
  }
  if (!existed) fs::remove(out);
}

void write_json(const Report& r, const fs::path& out) {
  std::ofstream f(out);
  f << r.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!f) throw std::runtime_error("could not write " + out.string());
}

int cmd_list(const Paths& paths, int device) {
  std::printf("%-20s %-5s %-7s %-22s %s\n", "problem", "kind", "points", "runnable here", "title");
  for (const Problem* p : Registry::all()) {
    const auto& i = p->info();
    const std::string why = cannot_run(*p, paths, device);
    std::printf("%-20s %-5s %-7.0f %-22s %s\n", i.slug.c_str(), kind_name(i.kind), i.points.total(),
                why.empty() ? "yes" : ("no (" + why + ")").c_str(), i.title.c_str());
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

int cmd_grade(const Paths& paths, const std::string& slug, const std::string& file, const std::string& json,
              const GradeOptions& opt) {
  const Problem& p = find_problem(slug);
  const fs::path src = file.empty() ? default_solution(p, paths) : fs::path(file);
  check_source(p, src);
  if (!json.empty()) check_writable(json);
  HumanPrinter printer(p, Style::detect(stdout));
  const Report r = grade(p, src, opt, paths, printer);
  printer.finished(r);
  if (!json.empty()) write_json(r, json);
  return r.verdict == Verdict::AC ? 0 : 1;
}

void add_grading_options(CLI::App& app, GradeOptions& opt, bool& no_bench) {
  app.add_option("--seed", opt.seed, "input seed (default: the public seed 42)");
  app.add_flag("--no-bench", no_bench, "skip the performance cases (correctness points only)");
  app.add_option("--threads", opt.threads, "OpenMP threads for the submission (default: every core)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--device", opt.device, "the CUDA device for GPU problems (default 0)")->check(CLI::Range(0, 1024));
  app.add_flag("--sanitize", opt.sanitize, "run compute-sanitizer memcheck on the functional tests (GPU problems)");
}

void check_sanitize(const GradeOptions& opt) {
  if (opt.sanitize && compute_sanitizer_path().empty())
    throw UsageError("--sanitize needs compute-sanitizer (from the CUDA toolkit), which is not installed here");
}

// Parses; a help request prints the help (exit 0), a bad command line one line (exit 2).
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "judge: %s (see %s --help)\n", e.what(), app.get_name().c_str());
    return 2;
  }
}

int run(int argc, char** argv) {
  const Paths paths = Paths::discover();
  GradeOptions opt;
  bool no_bench = false;
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "list") {
    CLI::App app{"List the problems: kind, points, and whether this machine can run them.", "judge list"};
    app.add_option("--device", opt.device, "the CUDA device to look at (default 0)");
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    return cmd_list(paths, opt.device);
  }
  if (cmd == "all") {
    CLI::App app{"Grade every problem's own solution file that this machine can run; one line per problem.",
                 "judge all"};
    add_grading_options(app, opt, no_bench);
    if (auto rc = parse(app, argc - 1, argv + 1)) return *rc;
    opt.bench = !no_bench;
    check_sanitize(opt);
    return cmd_all(paths, opt);
  }
  CLI::App app{"hpcjudge: compile, run, check, time and score a solution.\n"
               "  judge list                 the problems\n"
               "  judge all                  grade every problem's problems/<slug>/solution.*\n"
               "  judge SLUG [FILE]          grade FILE (default problems/SLUG/solution.*)",
               "judge"};
  std::string slug, file, json;
  app.add_option("slug", slug, "the problem, e.g. softmax-cpu")->required();
  app.add_option("file", file, "the solution to grade (default: problems/SLUG/solution.cpp or .cu)");
  app.add_option("--json", json, "also write the report as JSON to this file");
  add_grading_options(app, opt, no_bench);
  if (auto rc = parse(app, argc, argv)) return *rc;
  opt.bench = !no_bench;
  check_sanitize(opt);
  return cmd_grade(paths, slug, file, json, opt);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "judge: internal error (FAIL): %s\n", e.what());
    return 1;
  }
}
