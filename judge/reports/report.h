// The result of grading one file, and its JSON form (schema_version 1).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/timing.h"
#include "judge/grading/kernel_resources.h"
#include "judge/measure/machine.h"
#include "judge/grading/verdict.h"

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
  std::optional<size_t> device_peak_bytes;  // GPU: the most over the timed runs
  std::optional<double> percent_of_peak;    // of the machine's measured FLOP rate or bandwidth (median run)
  double gbps() const { return stats.median > 0 ? bytes / stats.median / 1e9 : 0; }
  double gflops() const { return stats.median > 0 ? flops / stats.median / 1e9 : 0; }
  // Filled by scoring: the reference solutions' medians on this machine.
  std::optional<double> baseline_s, fast_s;
};

struct Score {
  double correctness = 0, performance = 0, max = 0;  // performance includes the bonus
  std::optional<double> fraction;  // the performance fraction s in [0, kMaxFraction], when measured
  double bonus = 0;                // the points above the performance points (s > 1)
  std::string note;                // why performance points are missing, if they are
  double total() const { return correctness + performance; }
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
  std::string output;  // what the submission printed (first 64 KiB)
  size_t output_bytes = 0;
  nlohmann::json to_json() const;
};

}  // namespace hpcjudge
