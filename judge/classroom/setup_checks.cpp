#include "judge/classroom/setup_checks.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "sdk/problem.h"
#include "judge/classroom/child_judge.h"
#include "judge/classroom/leaderboard.h"
#include "judge/grading/grade.h"
#include "judge/timing/score.h"
#include "judge/isolation/process.h"
#include "judge/isolation/sandbox.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

// Whether bubblewrap starts here as a runner starts it (as root: as a user of its own), with the namespaces the
// judge asks for: "" when it does, else its own words (one line).
std::string sandbox_cannot_start() {
  SpawnOptions probe;
  probe.argv = {bubblewrap_path(), "--ro-bind",      "/",           "/",           "--proc",        "/proc",
                "--dev",           "/dev",           "--tmpfs",     "/tmp",        "--unshare-net", "--unshare-ipc",
                "--unshare-uts",   "--unshare-pid",  "--die-with-parent", "--new-session", "true"};
  if (geteuid() == 0) probe.uid = fresh_runner_uid();
  probe.output_limit = 4096;
  const RunResult r = run_command(probe, 30);
  if (!r.timed_out && r.status.exited && r.status.code == 0) return "";
  std::string line = r.output.substr(0, r.output.find('\n'));
  if (line.empty()) line = bubblewrap_path() + " ended with " + (r.timed_out ? "a time-out" : r.status.describe());
  return line;
}

// What grading without the sandbox gives up, and how to ask for it.
std::string without_sandbox() {
  if (geteuid() == 0)
    return "--no-sandbox grades without it: each submission still runs as a user of its own, under the syscall "
           "filter and Landlock (which hides the class, the results and the answers where the kernel has it), but "
           "with the network, the other processes in view and every file all users may read";
  return "--no-sandbox needs root (each submission a user of its own) or --unsafe-no-isolation with it, under "
         "which every submission runs as you, free to read and change the others' files and reports";
}

// Where the canaries' reports go: RESULTS/.canary, a Slurm task's (--participant) in a folder of its own below
// (the tasks of one array run at once, on other nodes).
fs::path canary_reports(const BatchOptions& opt) {
  const fs::path all = opt.out / ".canary";
  return opt.participant.empty() ? all : all / results_folder(opt.participant);
}

namespace {

// A folder for a problem's canary where the class's files are: a hidden folder beside the participants' (their
// parent, their folder's mode and owner), else beside the class folder; removed with its files.
struct CanaryFolder {
  fs::path path;
  explicit CanaryFolder(const fs::path& participant) {
    struct stat st {};
    if (stat(participant.c_str(), &st) != 0) return;
    for (const fs::path& at : {participant.parent_path(), participant.parent_path().parent_path()}) {
      std::string t = (at / (std::string(kCanaryFolderPrefix) + "XXXXXX")).string();
      if (!mkdtemp(t.data())) continue;
      path = t;
      chmod(path.c_str(), st.st_mode & 07777);
      // As root, the participants' owner too; where that fails the canary meets what their files would.
      if (geteuid() == 0) (void)!chown(path.c_str(), st.st_uid, st.st_gid);
      return;
    }
  }
  ~CanaryFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

}  // namespace

// Each problem's canary before its files are graded: the fast reference, copied where the class's files are
// (CanaryFolder, the file's mode and owner), graded by a child judge with the class's options, isolation, hidden
// paths and results folder, functional tests only. Returns, for each problem whose canary is neither AC nor SKIP
// (a machine that cannot run the problem SKIPs its files alike), why, in one line; its report stays in
// RESULTS/.canary/.
std::map<std::string, std::string> run_canaries(const Paths& paths, const BatchOptions& opt,
                                                const std::vector<BatchJob>& todo) {
  std::map<std::string, const BatchJob*> first;  // a problem -> a file of it to grade
  for (const auto& j : todo)
    if (j.refused.empty()) first.emplace(j.slug, &j);
  std::map<std::string, std::string> failed;
  BatchOptions functional = opt;
  functional.bench = false;
  const fs::path reports = canary_reports(opt);
  for (const auto& [slug, j] : first) {
    const Problem& p = *Registry::find(slug);
    std::printf("canary %s: its fast reference graded as the class's files are\n", slug.c_str());
    std::fflush(stdout);
    CanaryFolder folder(j->file.parent_path());
    if (folder.path.empty()) {
      std::fprintf(stderr, "warning: no canary for %s: no folder can be made beside the class's files\n",
                   slug.c_str());
      continue;
    }
    const fs::path file = folder.path / (slug + "." + p.info().source_ext);
    struct stat st {};
    std::error_code ec;
    fs::create_directories(reports, ec);
    fs::copy_file(reference_solution(p, paths, "fast"), file, ec);
    if (!ec && stat(j->file.c_str(), &st) == 0) {
      chmod(file.c_str(), st.st_mode & 07777);
      if (geteuid() == 0) (void)!chown(file.c_str(), st.st_uid, st.st_gid);
    }
    const fs::path part = reports / (slug + ".json.part");
    fs::remove(part, ec);
    const BatchJob canary{"canary", slug, file, reports / (slug + ".json"), ""};
    const RunResult r = run_command(child_judge(paths, functional, file, canary.participant, part, 0), 3600);
    const json report = child_report(canary, functional, r, part);
    fs::remove(part, ec);
    const std::string verdict = tolerant::str(report, "verdict");
    if (verdict == "AC" || verdict == "SKIP") {
      fs::remove(canary.report, ec);
      continue;
    }
    write_report(canary, report);
    failed[slug] = verdict + ": " + one_line(tolerant::str(report, "message"), 400);
  }
  std::error_code ec;
  if (fs::is_empty(reports, ec)) fs::remove(reports, ec);
  return failed;
}

}  // namespace hpcjudge
