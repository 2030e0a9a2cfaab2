// The server's grading side without HTTP: the grader (a child judge per submission), the local workers' plan, and
// the workers grading a store's queue. Grades use softmax-cpu with --no-bench, so each takes seconds.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <chrono>
#include <filesystem>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "judge/files.h"
#include "judge/reports/progress_file.h"
#include "server/grader.h"
#include "server/workers.h"

namespace fs = std::filesystem;
using namespace hpcjudge;
using namespace hpcjudge::server;
using Catch::Matchers::ContainsSubstring;

namespace {

// A folder under TMPDIR for this user alone, removed at the end.
struct TempFolder : hpcjudge::TempDir {
  TempFolder() : TempDir(fs::perms::owner_all) {}
};

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The judge built beside this test (build/judge/hpcjudge), which the grader starts as its child.
Paths judge_paths() {
  Paths p = Paths::discover();
  p.judge = p.judge.parent_path().parent_path() / "judge" / "hpcjudge";
  return p;
}

const fs::path kProblems = fs::path(HPCJUDGE_SOURCE_DIR) / "problems" / "softmax-cpu";

// A submission's file as the store keeps one: <slug>.cpp in a folder of its own.
fs::path submission_file(const fs::path& folder, const fs::path& from) {
  fs::create_directories(folder);
  fs::copy_file(from, folder / "softmax-cpu.cpp");
  return folder / "softmax-cpu.cpp";
}

GraderOptions quick() {
  GraderOptions g;
  g.bench = false;
  g.unisolated = geteuid() != 0;  // isolation needs root; the report then says it was graded without
  return g;
}

}  // namespace

TEST_CASE("progress lines: whole lines only, each read once", "[server][workers]") {
  TempFolder t;
  const fs::path f = t.path / "p.jsonl";
  size_t offset = 0;
  CHECK(read_progress_states(f, offset).empty());  // no file yet
  std::ofstream(f) << "{\"state\":\"testing\"}\n{\"state\":\"tim";
  CHECK(read_progress_states(f, offset) == std::vector<std::string>{"testing"});
  std::ofstream(f, std::ios::app) << "ing\"}\n";
  CHECK(read_progress_states(f, offset) == std::vector<std::string>{"timing"});
  CHECK(read_progress_states(f, offset).empty());
}

TEST_CASE("local workers: one per device, disjoint cores", "[server][workers]") {
  ServeOptions o;
  o.devices = {0, 1};
  const auto two = plan_workers(o, {0, 1, 2, 3});
  REQUIRE(two.size() == 2);
  CHECK(two[0].name == "local:gpu0");
  CHECK(two[1].device == 1);
  CHECK(two[0].cores == std::vector<int>{0, 1});
  CHECK(two[1].cores == std::vector<int>{2, 3});
  o.devices = {};
  const auto one = plan_workers(o, {0, 1});
  REQUIRE(one.size() == 1);
  CHECK(one[0].device == 0);
  CHECK(one[0].cores == std::vector<int>{0, 1});
  o.local_workers = 0;
  CHECK(plan_workers(o, {0, 1}).empty());
}

TEST_CASE("grader: an AC file graded by a child judge on the cores it was given", "[server][workers]") {
  TempFolder t;
  GradeRequest req{"softmax-cpu", submission_file(t.path / "1", kProblems / "submissions/AC/openmp.cpp"), "ann",
                   std::nullopt, 0, {0}, "local:gpu0"};
  std::vector<std::string> states;
  const Graded g = grade_submission(judge_paths(), quick(), req, [&](const std::string& s) { states.push_back(s); });
  INFO(g.text);
  REQUIRE(g.finished);
  CHECK(g.report["verdict"] == "AC");
  CHECK(g.report["participant"] == "ann");
  CHECK(g.report["server"]["worker"] == "local:gpu0");
  CHECK(g.report["server"]["cores"] == nlohmann::json::array({0}));
  CHECK(g.report["machine"]["threads"] == 1);  // the child judge saw one CPU: it ran on CPU 0 alone
  CHECK(states == std::vector<std::string>{"testing"});  // --no-bench: no timing stage
  CHECK_THAT(g.text, ContainsSubstring("verdict AC"));
}

TEST_CASE("grader: a CE file is the student's verdict, not a lost job", "[server][workers]") {
  TempFolder t;
  GradeRequest req{"softmax-cpu", submission_file(t.path / "1", kProblems / "submissions/CE/syntax-error.cpp"),
                   "bob", std::nullopt, 0, {}, "local:gpu0"};
  const Graded g = grade_submission(judge_paths(), quick(), req, {});
  REQUIRE(g.finished);
  CHECK(g.report["verdict"] == "CE");
}

TEST_CASE("grader: a child judge past its time limit or stopped did not finish: JE of the server's own",
          "[server][workers]") {
  TempFolder t;
  // A file that never returns: its grade outlasts the limits here.
  GradeRequest req{"softmax-cpu", submission_file(t.path / "1", kProblems / "submissions/TLE/endless-loop.cpp"),
                   "cy", std::nullopt, 0, {}, "local:gpu0"};
  GraderOptions o = quick();
  o.time_limit_s = 1;
  const Graded late = grade_submission(judge_paths(), o, req, {});
  CHECK_FALSE(late.finished);
  CHECK(late.report["verdict"] == "JE");
  CHECK_THAT(late.why, ContainsSubstring("timed out"));
  CHECK(late.report.contains("server"));

  std::stop_source stop;
  std::jthread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop.request_stop();
  });
  const auto start = std::chrono::steady_clock::now();
  const Graded stopped = grade_submission(judge_paths(), quick(), req, {}, stop.get_token());
  CHECK_FALSE(stopped.finished);
  CHECK(stopped.why == "the grader was stopped");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("grader: the final round's seed reaches the child in its environment, never its command line",
          "[server][workers]") {
  TempFolder t;
  GradeRequest req{"softmax-cpu", submission_file(t.path / "1", kProblems / "submissions/AC/openmp.cpp"), "di",
                   uint64_t{987654321}, 0, {}, "local:gpu0"};
  const Graded g = grade_submission(judge_paths(), quick(), req, {});
  REQUIRE(g.finished);
  CHECK(g.report["seed"] == "secret");
  CHECK(g.report.dump().find("987654321") == std::string::npos);
  CHECK(g.text.find("987654321") == std::string::npos);
}

TEST_CASE("workers: the queue graded, each job once, as the store's finish keeps it", "[server][workers]") {
  TempFolder t;
  Store store(t.path / "data");
  const int64_t ann = store.account_by_token(store.add_account("ann", "participant"))->id;
  const int64_t ac = store.add_submission(ann, "softmax-cpu", "mine.cpp", slurp(kProblems / "submissions/AC/openmp.cpp"));
  const int64_t wa = store.add_submission(ann, "softmax-cpu", "mine.cpp",
                                          slurp(kProblems / "submissions/CE/syntax-error.cpp"));
  ServeOptions opt;
  opt.bench = false;
  opt.unisolated = geteuid() != 0;
  opt.local_workers = 2;
  Context ctx{opt, judge_paths(), store};
  start_workers(ctx);
  ctx.notify();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!store.queue().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  stop_workers();
  const auto a = store.submission(ac), w = store.submission(wa);
  REQUIRE(a);
  REQUIRE(w);
  CHECK(a->state == "done");
  CHECK(a->verdict == "AC");
  CHECK(a->attempts == 1);
  CHECK(w->verdict == "CE");
  CHECK(w->attempts == 1);
  const auto report = store.report(ac);
  REQUIRE(report);
  CHECK(std::set<std::string>{"local:gpu0-0", "local:gpu0-1"}.count((*report)["server"]["worker"]) == 1);
  CHECK_THAT(store.report_text(ac).value_or(""), ContainsSubstring("verdict AC"));
}

namespace {

// A grade on a thread of its own: it enters the gate and holds its place until released (a hold is released by the
// thread that took it, as a worker does).
class Grade {
 public:
  Grade(GradeGate& gate, bool cpu, bool timed, int device)
      : thread_([this, &gate, cpu, timed, device] {
          const GradeGate::Hold hold = gate.enter(cpu, timed, device);
          in_ = true;
          std::unique_lock lock(m_);
          cv_.wait(lock, [this] { return released_; });
        }) {}
  ~Grade() { release(); }
  // Whether it got in, waiting up to `ms`.
  bool in(int ms = 2000) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!in_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return in_;
  }
  void release() {
    {
      std::lock_guard lock(m_);
      released_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool released_ = false;
  std::atomic<bool> in_{false};
  std::jthread thread_;  // last: started once the rest is made, joined first
};

constexpr bool kCpu = true, kGpu = false, kTimed = true, kUntimed = false;

}  // namespace

TEST_CASE("grade gate: no two timed runs share a GPU or a core", "[server][workers]") {
  GradeGate gate({0, 1});
  SECTION("timed GPU grades: on other devices beside, on the same device after") {
    Grade a(gate, kGpu, kTimed, 0);
    REQUIRE(a.in());
    Grade b(gate, kGpu, kTimed, 1);
    CHECK(b.in());
    Grade c(gate, kGpu, kTimed, 0);
    CHECK_FALSE(c.in(300));
    a.release();
    CHECK(c.in());
  }
  SECTION("a timed CPU grade waits for the GPU grades, then holds off every later grade") {
    Grade gpu(gate, kGpu, kTimed, 0);
    REQUIRE(gpu.in());
    Grade cpu(gate, kCpu, kTimed, 0);
    CHECK_FALSE(cpu.in(300));
    Grade later(gate, kGpu, kTimed, 1);  // on an idle device, but after the waiting CPU grade
    CHECK_FALSE(later.in(300));
    gpu.release();
    CHECK(cpu.in());
    CHECK_FALSE(later.in(300));
    cpu.release();
    CHECK(later.in());
  }
  SECTION("untimed grades (--no-bench) run beside one another") {
    Grade a(gate, kCpu, kUntimed, 0);
    REQUIRE(a.in());
    Grade b(gate, kCpu, kUntimed, 0);
    CHECK(b.in());
    Grade c(gate, kGpu, kUntimed, 0);
    CHECK(c.in());
  }
}
