// `judge profile SLUG [FILE] [--case NAME]`: one performance case of a submission run
// under a profiler, and a short summary a student can act on. GPU problems: Nsight
// Compute (`ncu --set full`, on the submission's own kernels only, named from the
// compiler's list) gives duration, memory and compute throughput as % of peak, achieved
// occupancy and the top warp stall reasons; the full .ncu-rep is kept for Nsight
// Compute's GUI. CPU problems: `perf stat` over the runner (that case's calls only):
// CPUs used, instructions per cycle, cache and branch misses. Either way the problem's
// own speed-of-light line closes the summary.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

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

// `perf stat -x,` output: event -> value; and its summary lines.
std::map<std::string, double> parse_perf_stat_csv(const std::string& text);
std::vector<std::string> perf_summary(const std::map<std::string, double>& events);

// The runner's prefixes. ncu: the kernels named (mangled), their first `launches`
// launches, the report written to `report_base`.ncu-rep. perf: the counts to `out`.
std::vector<std::string> ncu_prefix(const std::string& ncu, const std::vector<std::string>& mangled_kernels,
                                    int launches, const std::filesystem::path& report_base);
std::vector<std::string> perf_prefix(const std::string& perf, const std::filesystem::path& out);

}  // namespace hpcjudge
