// `judge SLUG [FILE]`: one file graded, the report on the terminal and, where asked, as JSON, Gradescope's
// results and JUnit XML; `judge all`: every problem's own solution file, a line each.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "judge/classroom/pack.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/files.h"
#include "judge/reports/course.h"
#include "judge/reports/human.h"
#include "judge/reports/progress_file.h"
#include "judge/verdicts/memory_limit.h"

namespace hpcjudge::cli {

namespace fs = std::filesystem;

namespace {

// The files a grading writes besides the terminal's report.
struct Outputs {
  std::string json, gradescope, junit;
  std::string progress;  // --progress: the grade's stages as JSON lines, for a parent (judge serve's grader)
};

std::string dump(const nlohmann::json& v) { return v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; }

// Each file to write can be written, before any grading.
void check_outputs(const Outputs& out) {
  for (const std::string& target : {out.json, out.gradescope, out.junit})
    if (!target.empty()) try {
        check_can_write(target);
      } catch (const FileRefused& e) {
        throw UsageError(e.what());
      }
}

void write_outputs(const Outputs& out, const Problem& p, const fs::path& src, const nlohmann::json& j) {
  if (!out.json.empty()) write_file_atomically(out.json, dump(j));
  if (!out.gradescope.empty()) write_file_atomically(out.gradescope, dump(gradescope_results(p, j)));
  if (!out.junit.empty())
    write_file_atomically(out.junit, junit_document("hpcjudge: " + fs::path(src).filename().string(),
                                                    {junit_testsuite(p, j)}));
}

int grade_file(const Paths& paths, const std::string& slug, const std::string& file, const Outputs& out,
               const GradeOptions& opt, const HumanOptions& human) {
  const Problem& p = find_problem(slug);
  if (auto why = memory_cap_refused(p, opt.memory_cap, opt.bench)) throw UsageError(*why);
  const fs::path src = file.empty() ? default_solution(p, paths) : fs::path(file);
  check_source(p, src, opt.folder);
  check_outputs(out);
  HumanPrinter printer(p, Style::detect(stdout), human);
  std::vector<Listener*> listeners{&printer};
  std::unique_ptr<ProgressFile> progress;
  try {
    if (!out.progress.empty()) listeners.push_back((progress = std::make_unique<ProgressFile>(out.progress)).get());
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  FanOut listener(listeners);
  const Report r = grade(p, src, opt, paths, listener);
  printer.finished(r);
  const nlohmann::json j = r.to_json();
  write_outputs(out, p, src, j);
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

int grade_every_problem(const Paths& paths, const GradeOptions& opt) {
  for (const Problem* p : Registry::all())
    if (auto why = memory_cap_refused(*p, opt.memory_cap, opt.bench)) throw UsageError(*why);
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

}  // namespace

int judge_all(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"Grade every problem's own solution file; one line per problem.", "judge all"};
  flags.add_to(app);
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  return grade_every_problem(paths, flags.opt);
}

int judge_grade(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"hpcjudge: compile, run, check, time and score a solution.\n"
               "  judge list                 the problems\n"
               "  judge all                  grade every problem's problems/<slug>/solution.*\n"
               "  judge SLUG [FILE]          grade FILE (default problems/SLUG/solution.*)\n"
               "  judge profile SLUG [FILE]  one performance case under ncu or perf stat, summarised\n"
               "  judge pack -o FILE         bundle your solutions to hand in\n"
               "  judge batch DIR            grade a class (staff); judge leaderboard RESULTS\n"
               "  judge bench [SLUG...]      baseline, fast reference and vendor anchor side by side\n"
               "  judge submit SLUG FILE --server URL   grade FILE on your course's server (judge serve)\n"
               "  judge serve --data DIR     the online judge on this machine (staff); judge worker: a grader for it",
               "judge"};
  std::string slug, file;
  Outputs outputs;
  app.add_option("slug", slug, "the problem, e.g. softmax-cpu")->required();
  app.add_option("file", file, "the solution to grade (default: problems/SLUG/solution.cpp or .cu)");
  app.add_option("--json", outputs.json, "also write the report as JSON to this file");
  app.add_option("--gradescope", outputs.gradescope,
                 "also write Gradescope's autograder results (results.json) to this file");
  app.add_option("--junit", outputs.junit, "also write a JUnit XML report to this file (CI, GitHub Classroom)");
  app.add_option("--progress", outputs.progress, "")->group("");  // what judge serve's grader asks (progress_file.h)
  HumanOptions human;
  app.add_flag("-v,--verbose", human.verbose, "a wrong answer's every listed mismatch, not the concise summary");
  flags.add_to(app);
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  return grade_file(paths, slug, file, outputs, flags.opt, human);
}

}  // namespace hpcjudge::cli
