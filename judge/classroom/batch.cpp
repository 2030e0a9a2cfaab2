#include "judge/classroom/batch.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>

#include "judge/measure/gpu.h"
#include "harness/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/isolation/process.h"
#include "judge/reports/report.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The problem a file is for: "<slug>.<the problem's extension>".
const Problem* problem_of(const fs::path& file) {
  const Problem* p = Registry::find(file.stem().string());
  if (p && file.extension() == "." + p->info().source_ext) return p;
  return nullptr;
}

// Files that `judge pack` adds beside the solutions: not submissions, not warned about.
bool pack_file(const fs::path& f) { return f.filename() == "manifest.json" || f.filename() == "reports"; }

std::string mmss(double s) {
  char buf[32];
  const int t = static_cast<int>(s);
  std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
  return buf;
}

class Progress {
 public:
  explicit Progress(size_t total) : total_(total), tty_(isatty(fileno(stdout))), start_(Clock::now()) {}
  void started(const BatchJob& j) {
    std::lock_guard lock(m_);
    current_ = j.participant + " (" + j.slug + ")";
    draw();
  }
  void finished(const BatchJob& j, const std::string& verdict, double score) {
    std::lock_guard lock(m_);
    ++done_;
    if (tty_) std::printf("\r\033[K");
    std::printf("%-24s %-18s %-5s %6.1f\n", j.participant.c_str(), j.slug.c_str(), verdict.c_str(), score);
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
                std::string(width - fill, '.').c_str(), done_, total_, current_.c_str(), mmss(el).c_str(),
                done_ ? mmss(left).c_str() : "?");
    std::fflush(stdout);
  }
  std::mutex m_;
  size_t total_, done_ = 0;
  bool tty_;
  Clock::time_point start_;
  std::string current_;
};

// A report the batch writes itself, for a file that no child judge graded.
json own_report(const BatchJob& j, const std::string& verdict, const std::string& message) {
  return {{"schema_version", kSchemaVersion}, {"problem", j.slug},      {"file", j.file.string()},
          {"verdict", verdict},                {"message", message},     {"tests", json::array()},
          {"bench", json::array()},            {"score", {{"total", 0.0}, {"max", 0.0}}},
          {"machine", json::object()}};
}

// Grades one file in a child judge; always leaves a report behind.
void grade_job(const Paths& paths, const BatchOptions& opt, const BatchJob& j, int device, Progress& progress) {
  progress.started(j);
  fs::create_directories(j.report.parent_path());
  const fs::path part = j.report.string() + ".part";
  fs::remove(part);
  json report;
  if (!j.refused.empty()) {
    report = own_report(j, "CE", "not graded: " + j.refused);
  } else {
    SpawnOptions child;
    child.argv = {paths.judge.string(), j.slug, fs::absolute(j.file).string(), "--json", part.string(), "--device",
                  std::to_string(device), "--participant-folder", fs::absolute(j.file).parent_path().string()};
    // The class, the results and the seed file are not the submission's to see.
    for (const fs::path& hide : {fs::absolute(opt.dir), fs::absolute(opt.out)})
      child.argv.insert(child.argv.end(), {"--hide", hide.string()});
    if (!opt.seed_file.empty()) child.argv.insert(child.argv.end(), {"--hide", opt.seed_file});
    if (!opt.bench) child.argv.push_back("--no-bench");
    // A class is graded on a GPU or not at all: emulated grades carry no performance points and
    // would be ranked beside timed ones (one file: judge SLUG FILE --emulate).
    child.argv.push_back("--no-emulate");
    if (opt.sandbox) child.argv.push_back("--sandbox");
    if (opt.unisolated) child.argv.push_back("--unsafe-no-isolation");
    // The seed in the environment, never on the command line (/proc/PID/cmdline is every process's to read).
    if (opt.secret_seed) child.env = {{kSecretSeedVariable, std::to_string(*opt.secret_seed)}};
    child.output_limit = 64 * 1024;
    const RunResult r = run_command(child, 4 * 3600);
    std::ifstream in(part);
    report = json::parse(in, nullptr, false);
    if (report.is_discarded() || !report.contains("verdict"))  // the judge itself did not finish: FAIL, the batch goes on
      report = own_report(j, "FAIL", "the judge did not finish (" +
                                         (r.timed_out ? std::string("timed out") : r.status.describe()) +
                                         "): " + r.output.substr(0, 300));
  }
  report["participant"] = j.participant;
  report["graded_at"] = utc_now();
  if (opt.unisolated)
    report["isolation"] = "none: graded with --unsafe-no-isolation, as the judge's own user and without the sandbox";
  fs::remove(part);
  write_file_atomically(j.report, report.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  progress.finished(j, report.value("verdict", "FAIL"), report["score"].value("total", 0.0));
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

}  // namespace

ClassList scan_class(const fs::path& dir, const fs::path& out) {
  ClassList c;
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.front() == '.') continue;
    if (e.is_symlink()) c.warnings.push_back("skipped " + e.path().string() + ": a symbolic link, not a participant folder");
    else if (e.is_directory()) folders.push_back(e.path());
    else c.warnings.push_back("skipped " + e.path().string() + ": not a participant folder");
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
      if (f.filename().string().front() == '.' || pack_file(f)) continue;
      const Problem* p = problem_of(f);
      if (!p) {
        c.warnings.push_back("skipped " + f.string() + ": named after no problem");
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

int run_batch(const Paths& paths, const BatchOptions& opt) {
  if (!fs::is_directory(opt.dir)) throw std::runtime_error(opt.dir.string() + ": no such folder");
  check_writable(opt.out);
  ClassList c = scan_class(opt.dir, opt.out);
  for (const auto& w : c.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!opt.participant.empty()) {
    if (std::find(c.participants.begin(), c.participants.end(), opt.participant) == c.participants.end())
      throw std::runtime_error("no participant folder '" + opt.participant + "' in " + opt.dir.string());
    c.participants = {opt.participant};
    std::erase_if(c.jobs, [&](const BatchJob& j) { return j.participant != opt.participant; });
  }
  if (opt.slurm) {
    // A name a Slurm task cannot be given costs that participant, not the class.
    std::erase_if(c.participants, [](const std::string& who) {
      if (who.find_first_of("\n\r") == std::string::npos) return false;
      std::fprintf(stderr, "warning: skipped participant '%s': a name holding a line break cannot be passed to a "
                   "Slurm task (grade it here with --participant)\n", who.c_str());
      return true;
    });
    std::vector<std::string> extra;
    if (!opt.bench) extra.push_back("--no-bench");
    if (!opt.seed_file.empty()) extra.insert(extra.end(), {"--seed-file", fs::absolute(opt.seed_file).string()});
    if (opt.force) extra.push_back("--force");
    if (!opt.sandbox) extra.push_back("--no-sandbox");
    if (opt.unisolated) extra.push_back("--unsafe-no-isolation");
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
  std::vector<BatchJob> todo;
  size_t kept = 0;
  for (const auto& j : c.jobs) {
    if (!opt.force && fs::exists(j.report)) ++kept;
    else todo.push_back(j);
  }
  if (kept) std::printf("%zu file(s) already graded in %s (--force regrades them)\n", kept, opt.out.string().c_str());
  // CPU problems one at a time (timing wants the whole machine); GPU problems
  // with one worker per GPU.
  std::vector<BatchJob> cpu, gpu;
  for (auto& j : todo) (Registry::find(j.slug)->info().kind == Kind::GPU ? gpu : cpu).push_back(j);
  Progress progress(todo.size());
  for (const auto& j : cpu) grade_job(paths, opt, j, 0, progress);
  const int devices = gpu.empty() ? 0 : std::max(1, probe_gpu(paths, 0).devices);
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int d = 0; d < devices; ++d)
    workers.emplace_back([&, d] {
      for (size_t i; (i = next++) < gpu.size();) grade_job(paths, opt, gpu[i], d, progress);
    });
  for (auto& w : workers) w.join();
  progress.end();
  if (opt.participant.empty()) {
    const json model = write_leaderboard(opt.out);
    std::printf("leaderboard of %zu participant(s): %s/leaderboard.{html,md,csv}\n", model["participants"].size(),
                opt.out.string().c_str());
  }
  return 0;
}

}  // namespace hpcjudge
