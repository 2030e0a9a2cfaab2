#include "judge/classroom/child_judge.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "sdk/problem.h"
#include "judge/files.h"
#include "judge/machine/machine.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

// The participant and file, for a line on the terminal.
std::string job_name(const BatchJob& j) { return terminal_safe(j.participant + "/" + j.file.filename().string()); }

Progress::Progress(size_t total) : total_(total), tty_(isatty(fileno(stdout))), start_(Clock::now()) {}

void Progress::started(const BatchJob& j) {
  std::lock_guard lock(m_);
  current_ = terminal_safe(j.participant) + " (" + j.slug + ")";
  draw();
}

void Progress::finished(const BatchJob& j, const std::string& verdict, double score) {
  std::lock_guard lock(m_);
  ++done_;
  if (tty_) std::printf("\r\033[K");
  std::printf("%s %-18s %-5s %6.1f\n", pad_to(terminal_safe(j.participant), 24).c_str(), j.slug.c_str(),
              terminal_safe(verdict).c_str(), score);
  draw();
}

void Progress::end() {
  if (tty_) std::printf("\r\033[K");
  std::fflush(stdout);
}

void Progress::draw() {
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
  if (opt.secret_seed) child.env = {{settings::kSecretSeed.name, std::to_string(*opt.secret_seed)}};
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

namespace {

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

}  // namespace

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
}  // namespace hpcjudge
