#include "server/grader.h"

#include <sched.h>

#include <chrono>
#include <stdexcept>
#include <system_error>

#include "judge/classroom/child_judge.h"
#include "judge/files.h"
#include "judge/isolation/process.h"
#include "judge/reports/progress_file.h"
#include "judge/reports/tolerant_json.h"
#include "sdk/problem.h"

namespace hpcjudge::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// This thread on `cores` while it lives (a child forked meanwhile keeps them), then back on the set it had.
class PinnedThread {
 public:
  explicit PinnedThread(const std::vector<int>& cores) {
    if (cores.empty()) return;
    cpu_set_t want;
    CPU_ZERO(&want);
    for (int c : cores) CPU_SET(c, &want);
    if (sched_getaffinity(0, sizeof old_, &old_) != 0 || sched_setaffinity(0, sizeof want, &want) != 0)
      throw std::system_error(errno, std::generic_category(), "sched_setaffinity");
    set_ = true;
  }
  ~PinnedThread() {
    if (set_) sched_setaffinity(0, sizeof old_, &old_);
  }
  PinnedThread(const PinnedThread&) = delete;
  PinnedThread& operator=(const PinnedThread&) = delete;

 private:
  cpu_set_t old_;
  bool set_ = false;
};

// The batch's options for this grade: child_judge hides the batch's class and results folders, here the first two
// paths to hide (the submission's own folder where there are none).
BatchOptions batch_options(const GraderOptions& opt, const GradeRequest& req) {
  BatchOptions b;
  b.bench = opt.bench;
  b.emulate = opt.emulate;
  b.sandbox = opt.sandbox;
  b.unisolated = opt.unisolated;
  b.secret_seed = req.secret_seed;
  b.dir = opt.hide.empty() ? fs::absolute(req.file).parent_path() : opt.hide[0];
  b.out = opt.hide.size() > 1 ? opt.hide[1] : b.dir;
  return b;
}

// Runs the child judge, handing on each stage it reaches, until it exits, the limit passes or a stop is asked.
RunResult run_child(const SpawnOptions& spawn, double limit_s, const fs::path& progress,
                    const std::function<void(const std::string&)>& on_state, std::stop_token stop, bool& stopped) {
  Child child(spawn);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
  size_t offset = 0;
  RunResult r;
  for (;;) {
    const Child::Wake w = child.wait(-1, std::min(deadline, Clock::now() + std::chrono::milliseconds(250)));
    for (const std::string& s : read_progress_states(progress, offset))
      if (on_state) on_state(s);
    if (w == Child::Wake::Exited) break;
    if (stop.stop_requested()) stopped = true;
    if (Clock::now() >= deadline) r.timed_out = true;
    if (stopped || r.timed_out) {
      child.kill();
      break;
    }
  }
  r.status = child.reap();
  r.output = child.output();
  return r;
}

}  // namespace

std::vector<int> thread_cores() {
  cpu_set_t s;
  std::vector<int> cores;
  if (sched_getaffinity(0, sizeof s, &s) != 0) return cores;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &s)) cores.push_back(c);
  return cores;
}

Graded grade_submission(const Paths& paths, const GraderOptions& opt, const GradeRequest& req,
                        const std::function<void(const std::string&)>& on_state, std::stop_token stop) {
  if (!Registry::find(req.slug) || req.file.stem() != req.slug)
    throw std::invalid_argument("no problem '" + req.slug + "' to grade " + req.file.string() + " as");
  const TempDir tmp(fs::perms::owner_all);  // the child's report and progress lines, for this user alone
  const fs::path part = tmp.path / "report.json", progress = tmp.path / "progress.jsonl";
  const BatchOptions b = batch_options(opt, req);
  SpawnOptions spawn = child_judge(paths, b, req.file, req.participant, part, req.device);
  spawn.argv.insert(spawn.argv.end(), {"--progress", progress.string()});
  for (size_t i = 2; i < opt.hide.size(); ++i) spawn.argv.insert(spawn.argv.end(), {"--hide", opt.hide[i].string()});

  Graded g;
  bool stopped = false;
  RunResult r;
  {
    const PinnedThread pinned(req.cores);
    r = run_child(spawn, opt.time_limit_s, progress, on_state, stop, stopped);
  }
  g.text = r.output;
  const json written = tolerant::read_file(part, 64 << 20);
  g.finished = !stopped && !written.is_discarded() && written.is_object() && written.contains("verdict");
  const BatchJob job{req.participant, req.slug, req.file, part, ""};
  g.report = g.finished ? written : child_report(job, b, r, part);
  if (!g.finished) {
    const std::string message = tolerant::str(g.report, "message");
    g.why = stopped ? "the grader was stopped" : message.substr(0, message.find('\n'));  // one line
    if (stopped) g.report["message"] = g.why;
  }
  g.report["server"] = {{"worker", req.worker}, {"device", req.device},
                        {"cores", req.cores.empty() ? thread_cores() : req.cores}};
  return g;
}

}  // namespace hpcjudge::server
