#include "judge/classroom/batch.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "sdk/problem.h"
#include "judge/classroom/child_judge.h"
#include "judge/classroom/kept_reports.h"
#include "judge/classroom/leaderboard.h"
#include "judge/classroom/noisy.h"
#include "judge/classroom/setup_checks.h"
#include "judge/files.h"
#include "judge/grading/grade.h"
#include "judge/machine/gpu.h"
#include "judge/reports/course.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "judge/sha256.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void check_writable(const fs::path& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  const fs::path probe = out / ".hpcjudge-write-test";
  std::ofstream f(probe);
  if (ec || !f) throw std::runtime_error(out.string() + ": cannot write results there");
  f.close();
  fs::remove(probe, ec);
}

// RESULTS/<participant>/junit.xml from the participant's reports.
fs::path write_junit(const fs::path& out, const std::string& who) {
  const fs::path folder = out / results_folder(who);
  std::vector<std::pair<std::string, JUnitSuite>> suites;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec)) {
    if (f.path().extension() != ".json" || !f.is_regular_file() || f.is_symlink()) continue;
    const json report = tolerant::read_file(f.path(), 64 << 20);
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

// A sandbox that cannot start would end every file's grade: said once, before anything is graded. False then.
bool sandbox_starts(const BatchOptions& opt) {
  if (!opt.sandbox || opt.slurm) return true;
  const std::string why = sandbox_cannot_start();
  if (why.empty()) return true;
  std::fprintf(stderr, "judge: the sandbox (bubblewrap) cannot start here: %s\nnothing was graded. Let "
               "bubblewrap make its namespaces (unprivileged user namespaces; a container allowed them), or: %s\n",
               terminal_safe(why).c_str(), without_sandbox().c_str());
  return false;
}

// A --participant batch: that participant alone (an unknown one is an error).
void keep_only(ClassList& c, const BatchOptions& opt) {
  if (std::find(c.participants.begin(), c.participants.end(), opt.participant) == c.participants.end())
    throw std::runtime_error("no participant folder '" + opt.participant + "' in " + opt.dir.string());
  c.participants = {opt.participant};
  std::erase_if(c.jobs, [&](const BatchJob& j) { return j.participant != opt.participant; });
}

// Each participant's pack checked against its manifest: a note for each that does not match (a warning too).
json pack_notes(const BatchOptions& opt, const ClassList& c) {
  json packs = json::object();
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
  return packs;
}

// RESULTS/batch.json: what the leaderboard needs beside the reports (the problem list, what was not graded, the
// packs).
void write_batch_record(const BatchOptions& opt, const ClassList& c, const std::vector<std::string>& problems) {
  json not_graded = json::array();
  for (const auto& n : c.not_graded)
    not_graded.push_back({{"participant", n.participant}, {"file", n.file}, {"reason", n.reason}});
  const json packs = pack_notes(opt, c);
  const json batch = {{"problems", problems.empty() ? json(nullptr) : json(problems)},
                      {"participants", c.participants},
                      {"not_graded", not_graded},
                      {"packs", packs},
                      {"judge_version", judge_version()},
                      {"written_at", utc_now()}};
  write_file_atomically(opt.out / kBatchFile, batch.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

// The options each Slurm task's batch is given, as this batch's.
std::vector<std::string> slurm_task_options(const BatchOptions& opt, const std::vector<std::string>& problems) {
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
  return extra;
}

// --slurm: a job array, a task per participant, and the leaderboard's job after them.
int submit_class(const Paths& paths, const BatchOptions& opt, ClassList& c, const std::vector<std::string>& problems) {
  // A name a Slurm task cannot be given costs that participant, not the class.
  std::erase_if(c.participants, [](const std::string& who) {
    if (who.find_first_of("\n\r") == std::string::npos) return false;
    std::fprintf(stderr, "warning: skipped participant '%s': a name holding a line break cannot be passed to a "
                 "Slurm task (grade it here with --participant)\n", terminal_safe(who).c_str());
    return true;
  });
  SlurmOptions so = opt.slurm_options;
  so.exclusive = opt.bench;  // timings taken beside another task's would be worth nothing
  const SlurmSubmission s = submit_to_slurm(paths.judge, fs::absolute(opt.dir), fs::absolute(opt.out),
                                            c.participants, slurm_task_options(opt, problems), so);
  std::printf("submitted job array %s (%zu participants) and leaderboard job %s; scripts and logs in %s\n",
              s.array_job.c_str(), c.participants.size(), s.leaderboard_job.c_str(), s.folder.string().c_str());
  return 0;
}

// The files to grade, each with the record of what it would be graded from now (its report is kept while that
// record is its report's).
struct Todo {
  std::vector<BatchJob> jobs;
  std::vector<GradedFrom> records;
  void erase_problems(const std::map<std::string, std::string>& broken) {
    for (size_t i = jobs.size(); i-- > 0;)
      if (broken.count(jobs[i].slug)) jobs.erase(jobs.begin() + i), records.erase(records.begin() + i);
  }
};

// What a file would be graded from now: its source (or why it is refused), the problem, the judge, the options.
GradedFrom record_of(const Paths& paths, BatchJob& j, const GradeOptions& now) {
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
  return graded_from(p, source_id, now, paths);
}

// The files whose report is not current, each said (a regrade with its reason); the current reports kept.
Todo files_to_grade(const Paths& paths, const BatchOptions& opt, ClassList& c) {
  const GradeOptions now = child_options(opt);
  Todo todo;
  std::map<std::string, int> kept_skips;  // slug -> SKIP reports kept (this machine cannot run them either)
  size_t kept = 0, fresh = 0;
  for (auto& j : c.jobs) {
    const GradedFrom record = record_of(paths, j, now);
    std::error_code ec;
    const bool exists = fs::exists(fs::symlink_status(j.report, ec));
    const std::string why = regrade_reason(paths, j, record, opt);
    if (exists && why.empty()) {
      ++kept;
      if (tolerant::str(tolerant::read_file(j.report, 64 << 20), "verdict") == "SKIP") ++kept_skips[j.slug];
      continue;
    }
    if (exists) std::printf("regrade %s: %s\n", job_name(j).c_str(), terminal_safe(why).c_str());
    else ++fresh;
    todo.jobs.push_back(j);
    todo.records.push_back(record);
  }
  if (fresh) std::printf("grade %zu new file(s)\n", fresh);
  if (kept)
    std::printf("kept %zu current report(s) in %s: graded from the same source, problem, judge, seed, options and "
                "machine (--force regrades them)\n", kept, terminal_safe(opt.out.string()).c_str());
  for (const auto& [slug, n] : kept_skips)
    std::printf("kept %d SKIP report(s) of %s: this machine cannot run it either; a batch on a machine that can "
                "regrades them\n", n, slug.c_str());
  return todo;
}

// Each problem's canary first: where the judge cannot grade its fast reference as it would the class's files,
// that problem's files are not graded (no verdict of theirs is the set-up's). Returns the broken problems.
std::map<std::string, std::string> check_canaries(const Paths& paths, const BatchOptions& opt, Todo& todo) {
  const std::map<std::string, std::string> broken = run_canaries(paths, opt, todo.jobs);
  for (const auto& [slug, why] : broken) {
    const auto n = std::count_if(todo.jobs.begin(), todo.jobs.end(), [&](const BatchJob& j) { return j.slug == slug; });
    std::fprintf(stderr, "judge: canary %s: its fast reference got %s\n  so its %zu file(s) were not graded: the "
                 "set-up or the judge is at fault, not the students. Fix what it names (a folder the runners cannot "
                 "reach, a sandbox that cannot start: %s) and run the batch again; its report: %s\n",
                 slug.c_str(), terminal_safe(why).c_str(), static_cast<size_t>(n), without_sandbox().c_str(),
                 terminal_safe((canary_reports(opt) / (slug + ".json")).string()).c_str());
  }
  todo.erase_problems(broken);
  return broken;
}

// CPU problems one at a time (timing wants the whole machine); GPU problems with one worker per GPU.
void grade_files(const Paths& paths, const BatchOptions& opt, const Todo& todo) {
  std::vector<size_t> cpu, gpu;
  for (size_t i = 0; i < todo.jobs.size(); ++i)
    (Registry::find(todo.jobs[i].slug)->info().kind == Kind::GPU ? gpu : cpu).push_back(i);
  Progress progress(todo.jobs.size());
  for (size_t i : cpu) grade_job_alone(paths, opt, todo.jobs[i], todo.records[i], 0, progress);
  const int devices = gpu.empty() ? 0 : std::max(1, probe_gpu(paths, 0).devices);
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int d = 0; d < devices; ++d)
    workers.emplace_back([&, d] {
      for (size_t k; (k = next++) < gpu.size();)
        grade_job_alone(paths, opt, todo.jobs[gpu[k]], todo.records[gpu[k]], d, progress);
    });
  for (auto& w : workers) w.join();
  progress.end();
}

// The JUnit files (--junit) and, for a whole class, the leaderboard; each said.
void write_class_files(const BatchOptions& opt, const ClassList& c, bool whole_class) {
  std::vector<std::string> written;
  if (opt.junit)
    for (const auto& who : c.participants) written.push_back(write_junit(opt.out, who).string());
  if (whole_class) {
    const LeaderboardFiles lb = write_leaderboard(opt.out);
    std::printf("%s\n", terminal_safe(lb.summary()).c_str());
  }
  if (!written.empty())
    std::printf("JUnit: %s\n", terminal_safe(written.size() <= 3 ? joined(written, ", ")
                                                                 : std::to_string(written.size()) + " files, " +
                                                                       (opt.out / "<participant>/junit.xml").string())
                                   .c_str());
}

// A judge error is no student's verdict: named (the next batch grades those files again). Returns how many.
size_t say_judge_errors(const std::vector<BatchJob>& graded) {
  std::vector<std::string> judge_errors;
  for (const auto& j : graded)
    if (tolerant::str(tolerant::read_file(j.report, 64 << 20), "verdict") == "JE") judge_errors.push_back(job_name(j));
  if (!judge_errors.empty())
    std::fprintf(stderr, "judge: %zu file(s) got JE, the judge's own fault, not ranked and graded again by the next "
                 "batch: %s\n", judge_errors.size(), joined(judge_errors, ", ").c_str());
  return judge_errors.size();
}

}  // namespace

int run_batch(const Paths& paths, const BatchOptions& opt) {
  if (!fs::is_directory(opt.dir)) throw std::runtime_error(opt.dir.string() + ": no such folder");
  check_writable(opt.out);
  if (!sandbox_starts(opt)) return 1;
  const std::vector<std::string> problems = opt.problems.empty() ? read_class_file(opt.dir) : opt.problems;
  ClassList c = scan_class(opt.dir, opt.out, problems);
  for (const auto& w : c.warnings) std::fprintf(stderr, "warning: %s\n", terminal_safe(w).c_str());
  std::optional<std::string> only;
  if (!opt.participant.empty()) {
    keep_only(c, opt);
    only = opt.participant;
  }
  // Reports whose source is gone go first, so that no leaderboard counts them.
  for (const auto& r : remove_stale_reports(opt.out, c, only)) std::printf("removed %s\n", terminal_safe(r).c_str());
  if (!only) write_batch_record(opt, c, problems);
  if (opt.slurm) return submit_class(paths, opt, c, problems);
  // Every participant gets a results folder, so those without a graded file still rank.
  for (const auto& who : c.participants) fs::create_directories(opt.out / results_folder(who));
  Todo todo = files_to_grade(paths, opt, c);
  const std::map<std::string, std::string> broken = check_canaries(paths, opt, todo);
  grade_files(paths, opt, todo);
  // Noisy grades of this batch, and with --regrade-noisy the kept ones too: once more, now.
  regrade_noisy(paths, opt, noisy_jobs(opt.regrade_noisy ? c.jobs : todo.jobs));
  if (!opt.regrade_noisy) say_kept_noisy(c.jobs, todo.jobs);
  write_class_files(opt, c, !only);
  const size_t judge_errors = say_judge_errors(todo.jobs);
  return broken.empty() && judge_errors == 0 ? 0 : 1;
}

}  // namespace hpcjudge
