// `judge batch DIR`: a class graded (judge/classroom/batch.h), its options read and checked here.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "judge/classroom/batch.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/isolation/sandbox.h"
#include "judge/verdicts/memory_limit.h"

namespace hpcjudge::cli {

namespace fs = std::filesystem;

namespace {

// --problems a,b,c: each named once, in order; an unknown one is a usage error, with a guess.
std::vector<std::string> problem_list(const std::string& problems) {
  std::vector<std::string> out;
  for (size_t at = 0; !problems.empty() && at <= problems.size();) {
    const size_t end = std::min(problems.find(',', at), problems.size());
    const std::string slug = problems.substr(at, end - at);
    at = end + 1;
    if (slug.empty()) continue;
    find_problem(slug);
    if (std::find(out.begin(), out.end(), slug) == out.end()) out.push_back(slug);
  }
  if (!problems.empty() && out.empty()) throw UsageError("--problems: no problem named");
  return out;
}

// The sandbox where bubblewrap is installed and not refused; without it and without root, only
// --unsafe-no-isolation grades.
void settle_isolation(BatchOptions& b, bool no_sandbox) {
  b.sandbox = !no_sandbox && !bubblewrap_path().empty();
  // Without root the runner cannot get a user of its own: only the sandbox keeps one participant's code
  // from another's files and reports.
  if (!b.sandbox && geteuid() != 0 && !b.unisolated && !b.slurm)
    throw UsageError(std::string(no_sandbox ? "--no-sandbox" : "bubblewrap is not installed") +
                     " and the judge is not root: every submission would run as you, free to change the others' "
                     "reports and files; install bubblewrap (apt-get install bubblewrap) or, knowing that, give "
                     "--unsafe-no-isolation");
  if (!no_sandbox && !b.sandbox && b.participant.empty())
    std::fprintf(stderr, "warning: bubblewrap is not installed: submissions run without the sandbox\n");
}

// Runs the batch; what it throws is a usage error (one line, exit status 2).
int run_batch_reporting_usage(const Paths& paths, const BatchOptions& b) {
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

}  // namespace

int judge_batch(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
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
  if (auto rc = parse(app, argc, argv)) return *rc;
  flags.settle();
  if (b.out.empty()) b.out = "results";
  b.problems = problem_list(problems);
  // A cap (HPCJUDGE_MEMORY_LIMIT) too low for a listed problem is refused here, not found by each child judge.
  for (const std::string& slug : b.problems)
    if (auto why = memory_cap_refused(find_problem(slug), flags.opt.memory_cap, flags.opt.bench))
      throw UsageError(*why);
  b.bench = flags.opt.bench;
  b.emulate = !no_emulate;
  b.unisolated = flags.opt.unisolated;
  settle_isolation(b, no_sandbox);
  flags.warn_if_seed_in_reach(b.sandbox);
  b.seed_file = flags.seed_file;
  if (!b.seed_file.empty()) b.seed_file = fs::absolute(b.seed_file).string();
  if (flags.opt.seed_secret) b.secret_seed = flags.opt.seed;
  return run_batch_reporting_usage(paths, b);
}

}  // namespace hpcjudge::cli
