// `judge profile SLUG [FILE] [--case NAME]`: one performance case of a submission run
// under a profiler, and a short summary a student can act on. GPU problems: Nsight
// Compute (`ncu --set full`, on the submission's own kernels only, named from the
// compiler's list) gives duration, memory and compute throughput as % of peak, achieved
// occupancy and the top warp stall reasons; the full .ncu-rep is kept for Nsight
// Compute's GUI. CPU problems: the CPUs solve() kept busy (the runner's own CPU clock
// over each timed call), then `perf stat` over the runner: instructions per cycle,
// cache and branch misses. Either way the problem's
// own speed-of-light line closes the summary.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sdk/problem.h"

namespace hpcjudge {

// A tool of the CUDA toolkit or Nsight Compute: beside nvcc, on PATH, or (for ncu)
// under /opt/nvidia/nsight-compute/*/ and the toolkit's nsight-compute-*/. "" if none.
std::string cuda_tool_path(const std::string& name);

// perf on PATH, or "".
std::string perf_path();

// One profiled kernel launch, from `ncu --import REPORT --csv --page raw`.
struct NcuKernel {
  std::string name;
  std::map<std::string, double> metrics;  // metric name -> value
  std::map<std::string, std::string> units;
  std::optional<double> get(const std::string& metric) const;
};
std::vector<NcuKernel> parse_ncu_raw_csv(const std::string& csv);

// The stall reasons of a launch, largest first: ("long_scoreboard", 12.3) in warp
// cycles per issued instruction (smsp__average_warps_issue_stalled_*_per_issue_active).
std::vector<std::pair<std::string, double>> top_stalls(const NcuKernel& k, size_t n);

// The summary lines of one launch (duration, throughputs, occupancy, stalls).
std::vector<std::string> ncu_summary(const NcuKernel& k);

// What solve() did with the CPUs in the timed calls (BenchResult::cpus_busy, cpus_waited_for), for `threads`
// OpenMP threads.
struct SolveCpus {
  double busy = 0, waited_for = 0;
  int threads = 0;
};

// `perf stat -x,` output: event -> value; and its summary lines, led by the CPUs solve() kept busy where known.
// perf's own task-clock covers the runner's whole life, most of it waiting while the judge makes inputs and
// checks outputs: never shown as the CPUs the code used.
std::map<std::string, double> parse_perf_stat_csv(const std::string& text);
std::vector<std::string> perf_summary(const std::map<std::string, double>& events,
                                      std::optional<SolveCpus> solve = std::nullopt);

// The performance case `judge profile` runs by default: of those a machine of `cores` cores runs, the one with
// the most work (FLOPs, else bytes, as a bench target's "largest"); "" if none runs.
std::string largest_case_here(const Problem& p, int cores);

// The runner's prefixes. ncu: the kernels named (mangled), their first `launches`
// launches, the report written to `report_base`.ncu-rep. perf: the counts to `out`.
std::vector<std::string> ncu_prefix(const std::string& ncu, const std::vector<std::string>& mangled_kernels,
                                    int launches, const std::filesystem::path& report_base);
std::vector<std::string> perf_prefix(const std::string& perf, const std::filesystem::path& out);

}  // namespace hpcjudge
