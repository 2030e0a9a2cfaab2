// What a grade is asked to do (GradeOptions) and who hears it happen (Listener): what the grade's parts
// (judge/grading/grade.h, judge/timing/, the runners started early) share, apart from the grade itself.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/problem.h"
#include "judge/reports/report.h"
#include "judge/timing/loop.h"

namespace hpcjudge {

inline constexpr uint64_t kPublicSeed = 42;
inline constexpr size_t kMaxSourceBytes = size_t{4} << 20;  // a submission's source file, at most
// The last (largest) test runs a second time with other inputs, named "<name> (new inputs)".
inline constexpr std::string_view kNewInputs = " (new inputs)";

// A GPU problem's code on the CPU (emulate/rewrite/rewrite.h): Auto emulates where
// this machine has no usable GPU (or no nvcc), On always, Off never (SKIP there).
enum class Emulation { Auto, On, Off };

struct GradeOptions {
  uint64_t seed = kPublicSeed;
  bool seed_secret = false;  // the seed came from --seed-file: the report says "secret"
  bool bench = true;
  bool score = true;  // off while timing the reference solutions themselves
  // Off while timing the reference solutions for the scale or make bench: their functional tests (and the
  // compute-sanitizer runs) are make test's own (each reference is an AC test, reference/<slug>/<file>), so
  // only the performance cases run, every one of whose outputs is checked all the same.
  bool functional_tests = true;
  // The fast reference (and a quick baseline) timed beside the submission in the
  // same run (judge/timing/rivals.h); off: the cached scale alone (--no-side-by-side).
  bool side_by_side = true;
  int threads = 0;    // OpenMP threads; 0 = every core
  int device = 0;     // the CUDA device
  bool sanitize = false;  // compute-sanitizer memcheck on the functional tests
  Emulation emulation = Emulation::Auto;
  bool sandbox = false;   // the runner under bubblewrap (judge/isolation/sandbox.h)
  // A batch's participant folder: the file must be a regular file inside it
  // (judge/files.h), not a symbolic link; elsewhere a link is followed to a regular file.
  std::filesystem::path folder;
  bool unisolated = false;  // --unsafe-no-isolation: graded without a user of its own or the sandbox (reports say so)
  std::vector<std::filesystem::path> hidden;  // more paths the sandbox hides (a batch's class and results folders)
  // A vendor anchor for `judge bench` (problems/<slug>/solutions/vendor.*): every
  // library allowed, cuBLAS or OpenBLAS linked.
  bool vendor = false;
  // `judge profile` (judge/machine/profile.h): only this performance case, without the
  // functional tests, the runner started under `runner_prefix` (ncu or perf stat).
  std::string only_case;
  std::vector<std::string> runner_prefix;
  // `judge bench`: each timed call's device time measured too, by events of the runner's own context
  // (BenchResult::device). Only for the judge's own references and vendor anchors, whose word it is; a
  // submission's figure is never asked for (its own clock is only cross-checked).
  bool device_time = false;
  // A batch's participant: the report names it and the time of grading.
  std::string participant;
  // HPCJUDGE_MEMORY_LIMIT, in bytes: the runners' host memory limit at most this (0: the problem's own;
  // judge/verdicts/memory_limit.h).
  size_t memory_cap = 0;
  // --model: the GPU an emulated grade's estimate models (judge/estimate/gpu_model.h names them).
  std::string gpu_model = "h100-sxm";
};

class Listener {
 public:
  virtual ~Listener() = default;
  virtual void compiled(const Report&) {}
  virtual void test_done(const TestResult&) {}
  virtual void bench_start(const Case&) {}
  // After each run of a performance case's timing loop (a reference's too, while the scale is timed).
  virtual void bench_progress(const Case&, const TimingLoop::Progress&) {}
  virtual void bench_done(const BenchResult&) {}
  virtual void note(const std::string&) {}  // long work the judge does on its own behalf
};

}  // namespace hpcjudge
