#include "judge/classroom/batch.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "harness/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/grading/grade.h"
#include "judge/timing/score.h"
#include "judge/isolation/process.h"
#include "judge/isolation/sandbox.h"
#include "judge/measure/gpu.h"
#include "judge/reports/course.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "judge/sha256.h"
#include "judge/suggest.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kMaxManifestBytes = 1 << 20;
// The hidden folder a problem's canary is graded in, beside the participants' (CanaryFolder): the judge's own,
// passed over by every class scan.
constexpr std::string_view kCanaryFolderPrefix = ".hpcjudge-canary-";

// The problem a file is for: "<slug>.<the problem's extension>".
const Problem* problem_of(const fs::path& file) {
  const Problem* p = Registry::find(file.stem().string());
  if (p && file.extension() == "." + p->info().source_ext) return p;
  return nullptr;
}

// The problem files a misnamed file may have meant, "softmax-cpu.cpp" for softmax.cpp or softmax_cpu.cpp ("" for
// none): the closest slugs (judge/suggest.h), of the class's problems where it has a list, those taking the
// file's extension first.
std::string meant_file(const fs::path& file, const std::vector<std::string>& problems) {
  std::vector<std::string> slugs = problems;
  if (slugs.empty())
    for (const Problem* p : Registry::all()) slugs.push_back(p->info().slug);
  std::vector<std::string> same_ext, other;
  for (const std::string& slug : closest(file.stem().string(), slugs)) {
    const Problem& p = *Registry::find(slug);
    const std::string name = slug + "." + p.info().source_ext;
    (file.extension() == "." + p.info().source_ext ? same_ext : other).push_back(name);
  }
  return one_of(same_ext.empty() ? other : same_ext);
}

// Whether a folder holds a file named for a problem (a hidden folder that may be a participant's).
bool holds_problem_file(const fs::path& folder) {
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec))
    if (problem_of(f.path())) return true;
  return false;
}

// Files that `judge pack` adds beside the solutions: not submissions, not warned about.
bool pack_file(const fs::path& f) { return f.filename() == "manifest.json" || f.filename() == "reports"; }

// The participant and file, for a line on the terminal.
std::string job_name(const BatchJob& j) { return terminal_safe(j.participant + "/" + j.file.filename().string()); }

class Progress {
 public:
  explicit Progress(size_t total) : total_(total), tty_(isatty(fileno(stdout))), start_(Clock::now()) {}
  void started(const BatchJob& j) {
    std::lock_guard lock(m_);
    current_ = terminal_safe(j.participant) + " (" + j.slug + ")";
    draw();
  }
  void finished(const BatchJob& j, const std::string& verdict, double score) {
    std::lock_guard lock(m_);
    ++done_;
    if (tty_) std::printf("\r\033[K");
    std::printf("%s %-18s %-5s %6.1f\n", pad_to(terminal_safe(j.participant), 24).c_str(), j.slug.c_str(),
                terminal_safe(verdict).c_str(), score);
    draw();
  }
  void end() {
    if (tty_) std::printf("\r\033[K");
    std::fflush(stdout);
  }

 private:
  void draw() {
    if (!tty_) return std::fflush(stdout), void();
    const double el = std::chrono::duration<double>(Clock::now() - start_).count();
    const double left = done_ ? el / done_ * (total_ - done_) : 0;
    const int width = 24, fill = total_ ? static_cast<int>(width * done_ / total_) : width;
    std::printf("\r\033[K[%s%s] %zu/%zu  %s  elapsed %s  left ~%s", std::string(fill, '#').c_str(),
                std::string(width - fill, '.').c_str(), done_, total_, current_.c_str(),
                format_seconds(el, TimeStyle::Clock).c_str(),
                done_ ? format_seconds(left, TimeStyle::Clock).c_str() : "?");
    std::fflush(stdout);
  }
  std::mutex m_;
  size_t total_, done_ = 0;
  bool tty_;
  Clock::time_point start_;
  std::string current_;
};

// The options a child judge grades with, as a grading's own options (for the record).
GradeOptions child_options(const BatchOptions& opt) {
  GradeOptions g;
  g.seed = opt.secret_seed.value_or(kPublicSeed);
  g.seed_secret = opt.secret_seed.has_value();
  g.bench = opt.bench;
  g.sandbox = opt.sandbox;
  g.unisolated = opt.unisolated;
  return g;
}

// A report the batch writes itself, for a file that no child judge graded: the same
// Report every grading writes, with the batch's verdict and message.
Report own_report(const BatchJob& j, Verdict verdict, const std::string& message, const BatchOptions& opt) {
  const Problem& p = *Registry::find(j.slug);
  Report r;
  r.problem = j.slug;
  r.file = j.file.string();
  r.source_path = fs::absolute(j.file).lexically_normal().string();
  r.verdict = verdict;
  r.message = message;
  r.seed = opt.secret_seed.value_or(kPublicSeed);
  r.seed_secret = opt.secret_seed.has_value();
  r.score.max = p.info().points.total();
  r.machine = probe_machine(0);
  r.participant = j.participant;
  r.graded_at = utc_now();
  if (opt.unisolated)
    r.isolation = "none: graded with --unsafe-no-isolation, as the judge's own user and without the sandbox";
  return r;
}

void write_report(const BatchJob& j, const json& report) {
  std::error_code ec;
  fs::create_directories(j.report.parent_path(), ec);  // a canary's, whose folder another Slurm task may remove
  write_file_atomically(j.report, report.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

// The child judge that grades `file` (a participant's, or a canary's in the same place) into `json_out`: the
// batch's options, isolation and hidden paths alike for every file.
SpawnOptions child_judge(const Paths& paths, const BatchOptions& opt, const fs::path& file, const std::string& who,
                         const fs::path& json_out, int device) {
  SpawnOptions child;
  child.argv = {paths.judge.string(), Registry::find(file.stem().string())->info().slug, fs::absolute(file).string(),
                "--json", json_out.string(), "--device", std::to_string(device), "--participant-folder",
                fs::absolute(file).parent_path().string(), "--participant-name=" + who};
  // The class, the results and the seed file are not the submission's to see.
  for (const fs::path& hide : {fs::absolute(opt.dir).lexically_normal(), fs::absolute(opt.out).lexically_normal()})
    child.argv.insert(child.argv.end(), {"--hide", hide.string()});
  if (!opt.seed_file.empty()) child.argv.insert(child.argv.end(), {"--hide", opt.seed_file});
  if (!opt.bench) child.argv.push_back("--no-bench");
  // A GPU problem without a usable GPU is emulated, as `judge SLUG FILE` does (the report says "emulated");
  // --no-emulate: SKIP instead.
  if (!opt.emulate) child.argv.push_back("--no-emulate");
  if (opt.sandbox) child.argv.push_back("--sandbox");
  if (opt.unisolated) child.argv.push_back("--unsafe-no-isolation");
  // The seed in the environment, never on the command line (/proc/PID/cmdline is every process's to read).
  if (opt.secret_seed) child.env = {{kSecretSeedVariable, std::to_string(*opt.secret_seed)}};
  child.output_limit = 64 * 1024;
  child.syscall_filter = false;  // a judge, which kills its runners' users itself; its runners are filtered
  return child;
}

// A child judge's report, or a JE report of the batch's own where the judge did not finish (no record: the next
// batch grades the file again).
json child_report(const BatchJob& j, const BatchOptions& opt, const RunResult& r, const fs::path& part) {
  json report = tolerant::read_file(part, 64 << 20);
  if (!report.is_discarded() && report.is_object() && report.contains("verdict")) return report;
  return own_report(j, Verdict::JE,
                    "the judge did not finish (" + (r.timed_out ? std::string("timed out") : r.status.describe()) +
                        "): " + r.output.substr(0, 300),
                    opt)
      .to_json();
}

// Grades one file in a child judge; always leaves a report behind.
void grade_job(const Paths& paths, const BatchOptions& opt, const BatchJob& j, const GradedFrom& record, int device,
               Progress& progress) {
  progress.started(j);
  fs::create_directories(j.report.parent_path());
  const fs::path part = j.report.string() + ".part";
  fs::remove(part);
  json report;
  if (!j.refused.empty()) {
    Report r = own_report(j, Verdict::CE, "not graded: " + j.refused, opt);
    r.graded_from = record;  // kept until the file changes
    report = r.to_json();
  } else {
    const RunResult r = run_command(child_judge(paths, opt, j.file, j.participant, part, device), 4 * 3600);
    report = child_report(j, opt, r, part);
  }
  fs::remove(part);
  write_report(j, report);
  const std::string verdict = tolerant::str(report, "verdict");
  progress.finished(j, verdict.empty() ? "JE" : verdict,
                    tolerant::num(tolerant::field(report, "score"), "total").value_or(0.0));
}

// grade_job, where whatever goes wrong costs that file alone: a JE report saying why, and the batch goes on.
void grade_job_alone(const Paths& paths, const BatchOptions& opt, const BatchJob& j, const GradedFrom& record,
                     int device, Progress& progress) {
  try {
    grade_job(paths, opt, j, record, device, progress);
  } catch (const std::exception& e) {
    const std::string why = std::string("the batch could not grade this file: ") + e.what();
    std::fprintf(stderr, "warning: %s: %s\n", job_name(j).c_str(), terminal_safe(why).c_str());
    try {
      write_report(j, own_report(j, Verdict::JE, why, opt).to_json());
    } catch (const std::exception&) {  // no report: the next batch grades it again
    }
    progress.finished(j, "JE", 0.0);
  }
}

// Why a report's score is uncertain (its "score"."noise": the machine was busy while it was timed), or "".
std::string noise_of(const json& report) { return tolerant::str(tolerant::field(report, "score"), "noise"); }

// The half-width of a report's score interval, in points (infinity where it has none).
double plus_minus_of(const json& report) {
  return tolerant::num(tolerant::field(report, "score"), "plus_minus").value_or(HUGE_VAL);
}

// The jobs whose report is noisy.
std::vector<BatchJob> noisy_jobs(const std::vector<BatchJob>& jobs) {
  std::vector<BatchJob> out;
  for (const BatchJob& j : jobs)
    if (j.refused.empty() && !noise_of(tolerant::read_file(j.report, 64 << 20)).empty()) out.push_back(j);
  return out;
}

// Grades each noisy job once more, one at a time, at the end of the batch: the regrade replaces the first
// grade unless it is noisy too with a wider interval. Says which stay noisy.
void regrade_noisy(const Paths& paths, const BatchOptions& opt, const std::vector<BatchJob>& noisy) {
  if (noisy.empty()) return;
  std::printf("grade %zu noisy grade(s) again (the machine was busy while they were timed):\n", noisy.size());
  Progress progress(noisy.size());
  std::vector<std::string> still;
  for (const BatchJob& j : noisy) {
    const json first = tolerant::read_file(j.report, 64 << 20);
    grade_job_alone(paths, opt, j, GradedFrom{}, 0, progress);
    const json again = tolerant::read_file(j.report, 64 << 20);
    const bool keep_first = !noise_of(again).empty() && plus_minus_of(again) > plus_minus_of(first);
    if (keep_first) write_report(j, first);
    const json& kept = keep_first ? first : again;
    if (const std::string noise = noise_of(kept); !noise.empty()) {
      char pm[32];
      std::snprintf(pm, sizeof pm, "\xC2\xB1 %.1f", plus_minus_of(kept));
      still.push_back(job_name(j) + " (" + pm + ": " + terminal_safe(one_line(noise, 160)) + ")");
    }
  }
  progress.end();
  if (still.empty()) {
    std::printf("no grade is noisy now\n");
    return;
  }
  std::printf("still noisy after a second grade (%zu; the leaderboard marks them; judge batch --regrade-noisy on a "
              "quiet machine grades them again):\n", still.size());
  for (const std::string& s : still) std::printf("  %s\n", s.c_str());
}

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

// A folder for a problem's canary where the class's files are: a hidden folder beside the participants' (their
// parent, their folder's mode and owner), else beside the class folder; removed with its files.
// Where the canaries' reports go: RESULTS/.canary, a Slurm task's (--participant) in a folder of its own below
// (the tasks of one array run at once, on other nodes).
fs::path canary_reports(const BatchOptions& opt) {
  const fs::path all = opt.out / ".canary";
  return opt.participant.empty() ? all : all / results_folder(opt.participant);
}

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

// The noisy reports kept from an earlier batch, which only --regrade-noisy grades again.
void say_kept_noisy(const std::vector<BatchJob>& jobs, const std::vector<BatchJob>& graded) {
  std::set<fs::path> now;
  for (const BatchJob& j : graded) now.insert(j.report);
  std::vector<BatchJob> kept;
  for (const BatchJob& j : jobs)
    if (!now.count(j.report)) kept.push_back(j);
  const size_t n = noisy_jobs(kept).size();
  if (n)
    std::printf("kept %zu noisy report(s) of an earlier batch (the leaderboard marks them): --regrade-noisy grades "
                "them again\n", n);
}

void check_writable(const fs::path& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  const fs::path probe = out / ".hpcjudge-write-test";
  std::ofstream f(probe);
  if (ec || !f) throw std::runtime_error(out.string() + ": cannot write results there");
  f.close();
  fs::remove(probe, ec);
}

json read_json_file(const fs::path& f, size_t max_bytes) { return tolerant::read_file(f, max_bytes); }

std::string joined(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// Why a file's report is not current, or "" when it is.
std::string regrade_reason(const Paths& paths, const BatchJob& j, const GradedFrom& now, const BatchOptions& opt) {
  if (opt.force) return "--force";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(j.report, ec))) return "";  // new: graded, not regraded
  const json report = read_json_file(j.report, 64 << 20);
  if (!readable_report(report)) return "its report cannot be read";
  GradedFrom then;
  try {
    then = GradedFrom::from_json(report.value("graded_from", json::object()));
  } catch (const json::exception&) {
    return "its report cannot be read";
  }
  if (report["verdict"] == "JE") return "a judge error (JE) is the judge's fault, never kept";
  if (then.empty()) return "its report records nothing of what it was graded from (an older judge, or a grading that did not finish)";
  const Problem& p = *Registry::find(j.slug);
  const bool gpu_here = !nvcc_path().empty() && probe_gpu(paths, 0).usable();
  if (report["verdict"] == "SKIP" && j.refused.empty()) {
    const bool runs_here = p.info().kind == Kind::CPU || gpu_here || (opt.emulate && emulator_built());
    if (runs_here) return "SKIP where it was graded, and this machine can run it";
  }
  if (report.value("emulated", json(false)) == json(true) && p.info().kind == Kind::GPU && !opt.emulate && !gpu_here)
    return "graded by CPU emulation, and this batch is --no-emulate";
  return joined(then.differences(now), "; ");
}

// The participant whose reports a results folder holds (results_folder() undone).
std::string participant_of_folder(const std::string& folder) {
  static const std::string renamed = " (participant)";
  return folder.ends_with(renamed) ? folder.substr(0, folder.size() - renamed.size()) : folder;
}

// Reports in RESULTS with no file behind them any more (the file deleted, the participant's
// folder gone, the file no longer graded): removed, each listed. With `only` (a
// --participant batch) only that participant's folder is looked at.
std::vector<std::string> remove_stale_reports(const fs::path& out, const ClassList& c,
                                              const std::optional<std::string>& only) {
  std::set<std::pair<std::string, std::string>> current;  // (participant, slug)
  for (const auto& j : c.jobs) current.insert({j.participant, j.slug});
  const std::set<std::string> in_class(c.participants.begin(), c.participants.end());
  std::map<std::pair<std::string, std::string>, std::string> not_graded;  // why a file of that slug is not graded
  for (const auto& n : c.not_graded) not_graded[{n.participant, fs::path(n.file).stem().string()}] = n.reason;
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& dir : fs::directory_iterator(out, ec)) {
    const std::string folder = dir.path().filename().string();
    if (!dir.is_directory() || dir.is_symlink() || folder.front() == '.' || folder == "slurm") continue;
    const std::string who = participant_of_folder(folder);
    if (results_folder(who) != folder) continue;  // not a folder this judge names after a participant
    if (only && who != *only) continue;
    const bool gone = !in_class.count(who);
    for (const auto& f : fs::directory_iterator(dir.path(), ec)) {
      if (!f.is_regular_file() || f.is_symlink()) continue;
      const std::string name = f.path().filename().string();
      if (gone && name == "junit.xml") {
        fs::remove(f.path(), ec);
        continue;
      }
      if (f.path().extension() != ".json") continue;
      const json report = read_json_file(f.path(), 64 << 20);
      if (!report.is_object() || !report.contains("problem") || !report["problem"].is_string()) continue;
      const std::string slug = report["problem"];
      if (!gone && current.count({who, slug})) continue;
      std::string why;
      if (gone) why = "the participant's folder is gone from the class";
      else if (auto it = not_graded.find({who, slug}); it != not_graded.end()) why = "not graded now: " + it->second;
      else why = "its source is gone";
      fs::remove(f.path(), ec);
      removed.push_back((dir.path() / name).string() + ": " + why);
    }
    if (gone && fs::is_empty(dir.path(), ec)) fs::remove(dir.path(), ec);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

// RESULTS/<participant>/junit.xml from the participant's reports.
fs::path write_junit(const fs::path& out, const std::string& who) {
  const fs::path folder = out / results_folder(who);
  std::vector<std::pair<std::string, JUnitSuite>> suites;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec)) {
    if (f.path().extension() != ".json" || !f.is_regular_file() || f.is_symlink()) continue;
    const json report = read_json_file(f.path(), 64 << 20);
    if (!readable_report(report)) continue;  // edited by hand: regraded by the next batch
    const Problem* p = Registry::find(report["problem"].get<std::string>());
    try {
      if (p) suites.emplace_back(p->info().slug, junit_testsuite(*p, report));
    } catch (const json::exception&) {
    }
  }
  std::sort(suites.begin(), suites.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<JUnitSuite> list;
  for (auto& [slug, s] : suites) list.push_back(std::move(s));
  const fs::path file = folder / "junit.xml";
  write_file_atomically(file, junit_document("hpcjudge: " + who, list));
  return file;
}

}  // namespace

std::vector<std::string> read_class_file(const fs::path& dir) {
  const fs::path file = dir / "class.json";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return {};
  json j;
  try {
    j = parse_untrusted_json(read_regular_file(file, kMaxManifestBytes), kMaxManifestBytes);
  } catch (const FileRefused& e) {
    throw std::runtime_error(std::string(e.what()));
  }
  if (!j.is_object() || !j.contains("problems") || !j["problems"].is_array())
    throw std::runtime_error(file.string() + ": not a class file; it must be {\"problems\": [\"softmax-cpu\", ...]}");
  std::vector<std::string> problems;
  for (const json& p : j["problems"]) {
    if (!p.is_string() || !Registry::find(p.get<std::string>()))
      throw std::runtime_error(file.string() + ": " + p.dump(-1, ' ', true, json::error_handler_t::replace) +
                               " is no problem ('judge list' shows them)");
    problems.push_back(p.get<std::string>());
  }
  if (problems.empty()) throw std::runtime_error(file.string() + ": the problem list is empty");
  return problems;
}

ClassList scan_class(const fs::path& dir, const fs::path& out, const std::vector<std::string>& problems) {
  ClassList c;
  const std::set<std::string> listed(problems.begin(), problems.end());
  // An entry the batch passes over: a warning, and a line in the leaderboard's "not graded" list.
  const auto skip = [&c](const std::string& who, const fs::path& entry, const std::string& why) {
    c.warnings.push_back("skipped " + entry.string() + ": " + why);
    c.not_graded.push_back({who, entry.filename().string(), why});
  };
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.front() == '.') {
      // Hidden (.git, .hpcjudge, an editor's): passed over, and said where it holds a file the batch would grade
      // under another name, so that no participant is dropped without a word. A canary's folder (CanaryFolder,
      // another Slurm task's while it runs) is the judge's own.
      if (name.starts_with(kCanaryFolderPrefix)) continue;
      if (e.is_directory() && !e.is_symlink() && holds_problem_file(e.path()))
        skip("", e.path(),
             "a hidden folder (its name begins with '.') that holds a problem's file: rename it to grade it");
      continue;
    }
    if (e.is_symlink()) {
      skip("", e.path(), "a symbolic link, not a participant folder");
    } else if (e.is_directory()) {
      std::error_code ec;
      if (fs::equivalent(e.path(), out, ec)) continue;  // the results folder inside the class: no participant
      if (fs::exists(e.path() / kBatchFile, ec))
        skip("", e.path(), "a results folder of another batch (it holds " + std::string(kBatchFile) + ")");
      else
        folders.push_back(e.path());
    } else if (name != "class.json") {
      skip("", e.path(), "not a participant folder");
    }
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    const std::string who = folder.filename().string();
    c.participants.push_back(who);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    size_t mine = 0;
    for (const auto& f : files) {
      const std::string name = f.filename().string();
      if (name.front() == '.') {  // hidden: passed over, said where its name less the dots is a problem's file
        const size_t shown = name.find_first_not_of('.');
        if (shown != std::string::npos && problem_of(name.substr(shown)))
          skip(who, f, "a hidden file (its name begins with '.'): rename it to grade it");
        continue;
      }
      if (pack_file(f)) continue;
      const Problem* p = problem_of(f);
      if (!p) {
        std::string why = "named after no problem";
        if (const Problem* q = Registry::find(f.stem().string()))
          why = q->info().slug + " takes a ." + q->info().source_ext + " file";
        else if (const std::string meant = meant_file(f, problems); !meant.empty())
          why += "; did you mean " + meant + "?";
        skip(who, f, why);
        continue;
      }
      if (!listed.empty() && !listed.count(p->info().slug)) {
        skip(who, f, "not one of this class's problems (" + joined(problems, ", ") + ")");
        continue;
      }
      // Only a regular file of the participant's own is graded; anything else gets a report saying why.
      const std::string refused = not_a_regular_file(f, folder);
      if (!refused.empty()) c.warnings.push_back("not graded: " + refused);
      c.jobs.push_back({who, p->info().slug, f, out / results_folder(who) / (p->info().slug + ".json"), refused});
      ++mine;
    }
    if (mine == 0) c.warnings.push_back("participant '" + who + "' submitted no problem files");
  }
  return c;
}

std::string check_pack(const fs::path& folder, const std::vector<BatchJob>& jobs) {
  const fs::path file = folder / "manifest.json";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return "";
  const json m = read_json_file(file, kMaxManifestBytes);
  if (!m.is_object() || !m.contains("files") || !m["files"].is_array())
    return "pack: its manifest.json cannot be read (not JSON, over " + std::to_string(kMaxManifestBytes >> 20) +
           " MiB or nested deeper than " + std::to_string(kMaxJsonDepth) + ")";
  std::vector<std::string> issues;
  const std::string made_by = m.value("judge_version", json("?")).is_string() ? m.value("judge_version", "?") : "?";
  if (made_by != judge_version()) issues.push_back("packed with judge " + made_by + ", graded with " + judge_version());
  std::map<std::string, std::string> listed;  // file name -> sha256
  for (const json& f : m["files"]) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string()) continue;
    listed[f["path"].get<std::string>()] = f.value("sha256", json("")).is_string() ? f.value("sha256", "") : "";
  }
  for (const auto& [name, sha] : listed) {
    const fs::path path = folder / name;
    if (name.find('/') != std::string::npos || !fs::exists(fs::symlink_status(path, ec))) {
      issues.push_back(name + " is in its manifest but not in the folder");
      continue;
    }
    std::string bytes;
    try {
      bytes = read_regular_file(path, kMaxSourceBytes);
    } catch (const FileRefused&) {
      issues.push_back(name + " cannot be read to check it");
      continue;
    }
    if (sha256_hex(bytes) != sha) issues.push_back(name + " changed since it was packed (SHA-256 differs)");
  }
  for (const auto& j : jobs)
    if (!listed.count(j.file.filename().string())) issues.push_back(j.file.filename().string() + " is not in its manifest");
  return issues.empty() ? "" : "pack does not match its manifest: " + joined(issues, "; ");
}

int run_batch(const Paths& paths, const BatchOptions& opt) {
  if (!fs::is_directory(opt.dir)) throw std::runtime_error(opt.dir.string() + ": no such folder");
  check_writable(opt.out);
  // A sandbox that cannot start would end every file's grade: said once, before anything is graded.
  if (opt.sandbox && !opt.slurm)
    if (const std::string why = sandbox_cannot_start(); !why.empty()) {
      std::fprintf(stderr, "judge: the sandbox (bubblewrap) cannot start here: %s\nnothing was graded. Let "
                   "bubblewrap make its namespaces (unprivileged user namespaces; a container allowed them), or: %s\n",
                   terminal_safe(why).c_str(), without_sandbox().c_str());
      return 1;
    }
  std::vector<std::string> problems = opt.problems.empty() ? read_class_file(opt.dir) : opt.problems;
  ClassList c = scan_class(opt.dir, opt.out, problems);
  for (const auto& w : c.warnings) std::fprintf(stderr, "warning: %s\n", terminal_safe(w).c_str());
  std::optional<std::string> only;
  if (!opt.participant.empty()) {
    if (std::find(c.participants.begin(), c.participants.end(), opt.participant) == c.participants.end())
      throw std::runtime_error("no participant folder '" + opt.participant + "' in " + opt.dir.string());
    only = opt.participant;
    c.participants = {opt.participant};
    std::erase_if(c.jobs, [&](const BatchJob& j) { return j.participant != opt.participant; });
  }
  // Reports whose source is gone go first, so that no leaderboard counts them.
  for (const auto& r : remove_stale_reports(opt.out, c, only)) std::printf("removed %s\n", terminal_safe(r).c_str());
  if (!only) {
    // What the leaderboard needs beside the reports: the problem list, what was not graded, the packs.
    json not_graded = json::array(), packs = json::object();
    for (const auto& n : c.not_graded)
      not_graded.push_back({{"participant", n.participant}, {"file", n.file}, {"reason", n.reason}});
    for (const auto& who : c.participants) {
      std::vector<BatchJob> mine;
      for (const auto& j : c.jobs)
        if (j.participant == who) mine.push_back(j);
      std::string note;
      try {
        note = check_pack(opt.dir / who, mine);
      } catch (const std::exception& e) {  // that participant's pack, never the batch
        note = std::string("pack: cannot be checked: ") + e.what();
      }
      if (!note.empty()) {
        packs[who] = note;
        std::fprintf(stderr, "warning: %s: %s\n", terminal_safe(who).c_str(), terminal_safe(note).c_str());
      }
    }
    const json batch = {{"problems", problems.empty() ? json(nullptr) : json(problems)},
                        {"participants", c.participants},
                        {"not_graded", not_graded},
                        {"packs", packs},
                        {"judge_version", judge_version()},
                        {"written_at", utc_now()}};
    write_file_atomically(opt.out / kBatchFile, batch.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  }
  if (opt.slurm) {
    // A name a Slurm task cannot be given costs that participant, not the class.
    std::erase_if(c.participants, [](const std::string& who) {
      if (who.find_first_of("\n\r") == std::string::npos) return false;
      std::fprintf(stderr, "warning: skipped participant '%s': a name holding a line break cannot be passed to a "
                   "Slurm task (grade it here with --participant)\n", terminal_safe(who).c_str());
      return true;
    });
    std::vector<std::string> extra;
    if (!opt.bench) extra.push_back("--no-bench");
    if (!opt.emulate) extra.push_back("--no-emulate");
    if (!opt.seed_file.empty()) extra.insert(extra.end(), {"--seed-file", fs::absolute(opt.seed_file).string()});
    if (opt.force) extra.push_back("--force");
    if (opt.regrade_noisy) extra.push_back("--regrade-noisy");
    if (!opt.sandbox) extra.push_back("--no-sandbox");
    if (opt.unisolated) extra.push_back("--unsafe-no-isolation");
    if (!problems.empty()) extra.insert(extra.end(), {"--problems", joined(problems, ",")});
    if (opt.junit) extra.push_back("--junit");
    SlurmOptions so = opt.slurm_options;
    so.exclusive = opt.bench;  // timings taken beside another task's would be worth nothing
    const SlurmSubmission s = submit_to_slurm(paths.judge, fs::absolute(opt.dir), fs::absolute(opt.out),
                                              c.participants, extra, so);
    std::printf("submitted job array %s (%zu participants) and leaderboard job %s; scripts and logs in %s\n",
                s.array_job.c_str(), c.participants.size(), s.leaderboard_job.c_str(), s.folder.string().c_str());
    return 0;
  }
  // Every participant gets a results folder, so those without a graded file still rank.
  for (const auto& who : c.participants) fs::create_directories(opt.out / results_folder(who));
  // What each file would be graded from now; a report of anything else is regraded.
  const GradeOptions now = child_options(opt);
  std::vector<BatchJob> todo;
  std::vector<GradedFrom> records;
  std::map<std::string, int> kept_skips;  // slug -> SKIP reports kept (this machine cannot run them either)
  size_t kept = 0, fresh = 0;
  for (auto& j : c.jobs) {
    const Problem& p = *Registry::find(j.slug);
    std::string source_id;
    if (j.refused.empty()) {
      try {
        source_id = sha256_hex(read_regular_file(j.file, kMaxSourceBytes));
      } catch (const FileRefused& e) {
        j.refused = e.what();
      }
    }
    if (!j.refused.empty()) source_id = "refused: " + j.refused;
    const GradedFrom record = graded_from(p, source_id, now, paths);
    std::error_code ec;
    const bool exists = fs::exists(fs::symlink_status(j.report, ec));
    const std::string why = regrade_reason(paths, j, record, opt);
    if (exists && why.empty()) {
      ++kept;
      if (tolerant::str(read_json_file(j.report, 64 << 20), "verdict") == "SKIP") ++kept_skips[j.slug];
      continue;
    }
    if (exists) std::printf("regrade %s: %s\n", job_name(j).c_str(), terminal_safe(why).c_str());
    else ++fresh;
    todo.push_back(j);
    records.push_back(record);
  }
  if (fresh) std::printf("grade %zu new file(s)\n", fresh);
  if (kept)
    std::printf("kept %zu current report(s) in %s: graded from the same source, problem, judge, seed, options and "
                "machine (--force regrades them)\n", kept, terminal_safe(opt.out.string()).c_str());
  for (const auto& [slug, n] : kept_skips)
    std::printf("kept %d SKIP report(s) of %s: this machine cannot run it either; a batch on a machine that can "
                "regrades them\n", n, slug.c_str());
  // Each problem's canary first: where the judge cannot grade its fast reference as it would the class's files,
  // that problem's files are not graded (no verdict of theirs is the set-up's).
  const std::map<std::string, std::string> broken = run_canaries(paths, opt, todo);
  for (const auto& [slug, why] : broken) {
    const auto n = std::count_if(todo.begin(), todo.end(), [&](const BatchJob& j) { return j.slug == slug; });
    std::fprintf(stderr, "judge: canary %s: its fast reference got %s\n  so its %zu file(s) were not graded: the "
                 "set-up or the judge is at fault, not the students. Fix what it names (a folder the runners cannot "
                 "reach, a sandbox that cannot start: %s) and run the batch again; its report: %s\n",
                 slug.c_str(), terminal_safe(why).c_str(), static_cast<size_t>(n), without_sandbox().c_str(),
                 terminal_safe((canary_reports(opt) / (slug + ".json")).string()).c_str());
  }
  for (size_t i = todo.size(); i-- > 0;)
    if (broken.count(todo[i].slug)) todo.erase(todo.begin() + i), records.erase(records.begin() + i);
  // CPU problems one at a time (timing wants the whole machine); GPU problems
  // with one worker per GPU.
  std::vector<size_t> cpu, gpu;
  for (size_t i = 0; i < todo.size(); ++i)
    (Registry::find(todo[i].slug)->info().kind == Kind::GPU ? gpu : cpu).push_back(i);
  Progress progress(todo.size());
  for (size_t i : cpu) grade_job_alone(paths, opt, todo[i], records[i], 0, progress);
  const int devices = gpu.empty() ? 0 : std::max(1, probe_gpu(paths, 0).devices);
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int d = 0; d < devices; ++d)
    workers.emplace_back([&, d] {
      for (size_t k; (k = next++) < gpu.size();)
        grade_job_alone(paths, opt, todo[gpu[k]], records[gpu[k]], d, progress);
    });
  for (auto& w : workers) w.join();
  progress.end();
  // Noisy grades of this batch, and with --regrade-noisy the kept ones too: once more, now.
  regrade_noisy(paths, opt, noisy_jobs(opt.regrade_noisy ? c.jobs : todo));
  if (!opt.regrade_noisy) say_kept_noisy(c.jobs, todo);
  std::vector<std::string> written;
  if (opt.junit)
    for (const auto& who : c.participants) written.push_back(write_junit(opt.out, who).string());
  if (!only) {
    const LeaderboardFiles lb = write_leaderboard(opt.out);
    std::printf("%s\n", terminal_safe(lb.summary()).c_str());
  }
  if (!written.empty())
    std::printf("JUnit: %s\n", terminal_safe(written.size() <= 3 ? joined(written, ", ")
                                                                 : std::to_string(written.size()) + " files, " +
                                                                       (opt.out / "<participant>/junit.xml").string())
                                   .c_str());
  // A judge error is no student's verdict: named, and the batch fails (the next one grades those files again).
  std::vector<std::string> judge_errors;
  for (const auto& j : todo)
    if (tolerant::str(read_json_file(j.report, 64 << 20), "verdict") == "JE") judge_errors.push_back(job_name(j));
  if (!judge_errors.empty())
    std::fprintf(stderr, "judge: %zu file(s) got JE, the judge's own fault, not ranked and graded again by the next "
                 "batch: %s\n", judge_errors.size(), joined(judge_errors, ", ").c_str());
  return broken.empty() && judge_errors.empty() ? 0 : 1;
}

}  // namespace hpcjudge
