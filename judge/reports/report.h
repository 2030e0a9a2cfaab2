// The result of grading one file, and its JSON form (schema_version 1).
#pragma once
#include "protocol/json.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/timing/stats.h"
#include "judge/grading/kernel_resources.h"
#include "judge/machine/machine.h"
#include "judge/verdicts/verdict.h"
#include "judge/reports/record.h"

namespace hpcjudge {

inline constexpr int kSchemaVersion = 1;

struct TestResult {
  std::string name;
  std::string sizes;  // "M=7 N=13 K=11"
  Verdict verdict = Verdict::AC;
  double seconds = 0;  // the solve() call on the judge's clock (judge/isolation/session.h)
  std::string message;
  double max_abs_err = 0, max_rel_err = 0;
  std::optional<size_t> device_peak_bytes;  // GPU: device memory solve() held allocated at most
  // A wrong answer for a student: the count and first mismatch, the largest error and
  // why the tolerance rejects it, a hint (lines). `message` keeps every listed mismatch.
  std::string summary = {};
};

struct BenchResult {
  std::string name;
  std::string sizes;
  Verdict verdict = Verdict::AC;
  std::string message;
  Stats stats;           // over the timed runs (warm-up excluded), seconds
  std::string stop;      // why the loop stopped: converged, budget, max runs
  double bytes = 0, flops = 0;
  double edges = 0;  // a graph traversal's edges (Model::edges), for GTEPS; else 0
  std::optional<size_t> device_peak_bytes;  // GPU: the most over the timed runs
  std::optional<double> percent_of_peak;    // of the machine's measured FLOP rate or bandwidth (median run)
  // GradeOptions::device_time (`judge bench`, a GPU problem): the timed calls' device time, by events of the
  // runner's own context (from the GPU taking the call's work up to the end of its synchronise), and the
  // median's percentage of the peak on it: the kernels' own speed, without the per-call overhead the
  // judge's clock holds (the runner woken, the GPU switched from the judge's context).
  std::optional<Stats> device;
  std::optional<double> device_percent_of_peak;
  // `judge profile`: the timed calls' CPU time (every thread of the runner) over their wall time, by the runner's
  // own clocks: how many CPUs solve() kept busy on average, and how many more its threads waited for, ready to
  // run while other processes had the CPUs (not in the JSON report).
  std::optional<double> cpus_busy, cpus_waited_for;
  double gbps() const { return stats.median > 0 ? bytes / stats.median / 1e9 : 0; }
  double gflops() const { return stats.median > 0 ? flops / stats.median / 1e9 : 0; }
  double gteps() const { return stats.median > 0 ? edges / stats.median / 1e9 : 0; }
  // Side by side (judge/timing/rivals.h): a reference solution called on the same
  // inputs right beside each timed run of this case, and the runs' paired ratios.
  struct Paired {
    std::string role;        // "fast", or "baseline" where it is quick enough to time beside
    double median_log = 0;   // the median over the runs of ln(t_run / t_role)
    Interval ci;             // its interval (median_interval)
    size_t pairs = 0;
    Stats stats;             // the rival's own times
  };
  std::vector<Paired> paired;
  const Paired* paired_with(const std::string& role) const {
    for (const Paired& p : paired)
      if (p.role == role) return &p;
    return nullptr;
  }
  // Filled by scoring: the reference solutions' times on this machine, as the
  // score used them (this run's side-by-side ratios applied to this case's median,
  // or the cached medians), and where each came from.
  std::optional<double> baseline_s, fast_s;
  std::string baseline_from, fast_from;  // "side by side" or "cached"
  // Where the baseline is within kMinScaleSpan of the fast reference: the slow end the case was scored from
  // instead (kMinScaleSpan x fast_s).
  std::optional<double> scale_floor_s;
  // Filled by scoring: the case's own share of the performance points (Fraction::shares), 0 to kMaxFraction.
  std::optional<double> share;
  // Where the case's wall time went, in seconds (the judge's own cost, for making grades quicker): laying the case
  // out (its per-case inputs, the rivals' too), each run's fresh inputs and the reference's answers, the calls
  // (copies in, the submission's and the rivals' calls, copies out), and checking the outputs.
  struct Wall {
    double lay_out = 0, inputs = 0, calls = 0, checks = 0, total = 0;
  } wall;
};

struct Score {
  double correctness = 0, performance = 0, max = 0;  // performance includes the bonus
  std::optional<double> fraction;  // the performance fraction s in [0, kMaxFraction], when measured
  // The performance points' interval, from each case's ratio interval (about 95%).
  std::optional<double> performance_lo, performance_hi;
  double bonus = 0;                // the points above the performance points (s > 1)
  // Why the interval is wide (over kNoisyPoints either side): what the machine was doing.
  std::string noise;
  std::string note;                // why performance points are missing, if they are
  double total() const { return correctness + performance; }
  // Half the interval's width, in points (the "± x" printed after the score).
  std::optional<double> plus_minus() const {
    if (!performance_lo || !performance_hi) return std::nullopt;
    return 0.5 * (*performance_hi - *performance_lo);
  }
};

struct Report {
  std::string problem;
  std::string file;
  std::string source_key;  // file_key() of the file graded (judge/paths.h)
  uint64_t seed = 0;
  bool seed_secret = false;  // from --seed-file: never printed, never in the report
  Verdict verdict = Verdict::AC;
  std::string message;  // the cause of a non-AC verdict, one line
  bool compiled = false;
  std::string compile_command, compile_log;
  std::string compile_arch;              // CUDA: the "sm_XY" compiled for
  std::vector<KernelResources> kernels;  // CUDA: each kernel's resource use (nvcc -Xptxas -v)
  double compile_seconds = 0;
  bool compile_cached = false;  // the same file compiled earlier on this machine (compile_submission_cached)
  std::vector<TestResult> tests;
  std::vector<BenchResult> bench;
  Score score;
  MachineInfo machine;
  // GPU: the most device memory solve() held allocated in any call, and the largest limit.
  std::optional<size_t> device_peak_bytes;
  // How the calls were timed: the judge's clock, the round trip subtracted, where the buffers were.
  nlohmann::json timing = nlohmann::json::object();
  // GPU problems run on the CPU (judge --emulate): the tests left out for their size, with the reason.
  bool emulated = false;
  std::vector<std::pair<std::string, std::string>> emulation_skipped;
  // An emulated grade's estimate of the GPU's time and score (judge/estimate/estimate.h, Estimate::to_json), or
  // null: the JSON's `emulation.estimate`, never part of `score`.
  nlohmann::json estimate;
  std::string output;  // what the submission printed (first 64 KiB)
  size_t output_bytes = 0;
  // What it was graded from (judge/reports/record.h), and the file's absolute path:
  // what `judge pack` hands in and `judge batch` compares before it keeps a result.
  GradedFrom graded_from;
  std::string source_path;
  // In a batch: the participant and the time of grading; and, graded with
  // --unsafe-no-isolation, a sentence saying so. Left out of the JSON when empty.
  std::string participant, graded_at, isolation;
  // The environment variables that may change a grade (settings/settings.h), as set at the judge's start where not
  // their default: name and value ("secret" for the secret seed). The JSON's "settings" object, left out when empty.
  std::vector<std::pair<std::string, std::string>> settings;
  nlohmann::json to_json() const;
};

// Whether `j` reads as a report to_json() wrote: an object whose problem and verdict are strings and whose score,
// where it has one, is an object with a numeric total. A results folder's report may have been edited by hand
// (a score set by the staff); one that does not read so is graded again by `judge batch` ("its report cannot be
// read") and left out of a leaderboard with a warning, rather than ending either with an internal error.
bool readable_report(const nlohmann::json& j);

}  // namespace hpcjudge
