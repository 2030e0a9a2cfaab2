#include "judge/machine/profile.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "protocol/profiler_range.h"
#include "judge/machine/gpu.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> path_dirs() {
  std::vector<fs::path> dirs;
  for (const std::string& d : settings::path_folders()) dirs.push_back(d);
  return dirs;
}

// Splits one CSV line with "quoted" fields.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur), cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// "1,234.5" -> 1234.5; nothing for text that is not a number.
std::optional<double> number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::string fixed(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

std::string cuda_tool_path(const std::string& name) {
  std::vector<fs::path> dirs;
  if (const std::string nvcc = nvcc_path(); !nvcc.empty()) dirs.push_back(fs::path(nvcc).parent_path());
  for (const fs::path& d : path_dirs()) dirs.push_back(d);
  std::error_code ec;
  std::vector<fs::path> installs;  // Nsight Compute's own folders, newest last
  for (const fs::path& root : {fs::path("/opt/nvidia/nsight-compute"), fs::path("/usr/local/cuda")})
    for (const auto& e : fs::directory_iterator(root, ec))
      if (e.is_directory(ec) && (root.filename() != "cuda" || e.path().filename().string().rfind("nsight-compute", 0) == 0))
        installs.push_back(e.path());
  std::sort(installs.rbegin(), installs.rend());
  dirs.insert(dirs.end(), installs.begin(), installs.end());
  for (const auto& d : dirs)
    if (access((d / name).c_str(), X_OK) == 0) return (d / name).string();
  return "";
}

std::string perf_path() {
  for (const fs::path& d : path_dirs())
    if (access((d / "perf").c_str(), X_OK) == 0) return (d / "perf").string();
  return "";
}

std::optional<double> NcuKernel::get(const std::string& metric) const {
  const auto it = metrics.find(metric);
  return it == metrics.end() ? std::nullopt : std::optional<double>(it->second);
}

std::vector<NcuKernel> parse_ncu_raw_csv(const std::string& csv) {
  std::vector<NcuKernel> out;
  std::istringstream in(csv);
  std::vector<std::string> header, units;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"') continue;  // ncu's own ==PROF== lines
    std::vector<std::string> f = csv_fields(line);
    if (header.empty()) {
      header = std::move(f);
      continue;
    }
    if (units.empty() && (f.empty() || f[0].empty())) {  // the units row has no ID
      units = std::move(f);
      continue;
    }
    NcuKernel k;
    for (size_t i = 0; i < f.size() && i < header.size(); ++i) {
      if (header[i] == "Kernel Name") k.name = f[i];
      if (const auto v = number(f[i]); v && header[i].find("__") != std::string::npos) {
        k.metrics[header[i]] = *v;
        if (i < units.size()) k.units[header[i]] = units[i];
      }
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<std::pair<std::string, double>> top_stalls(const NcuKernel& k, size_t n) {
  static const std::regex stall("^smsp__average_warps?_(?:latency_)?issue_stalled_(\\w+?)_per_issue_active\\.ratio$");
  std::vector<std::pair<std::string, double>> s;
  for (const auto& [metric, v] : k.metrics) {
    std::smatch m;
    if (!std::regex_match(metric, m, stall)) continue;
    const std::string reason = m[1];
    if (reason == "selected" || reason == "not_selected" || v <= 0) continue;  // issuing, not stalled
    s.push_back({reason, v});
  }
  std::sort(s.begin(), s.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (s.size() > n) s.resize(n);
  return s;
}

std::vector<std::string> ncu_summary(const NcuKernel& k) {
  std::vector<std::string> lines;
  const auto pct = [&](const char* label, const std::string& metric, const char* what) {
    if (const auto v = k.get(metric)) lines.push_back(std::string(label) + fixed("%.1f%%", *v) + what);
  };
  if (const auto d = k.get("gpu__time_duration.sum")) {
    const std::string unit = k.units.count("gpu__time_duration.sum") ? k.units.at("gpu__time_duration.sum") : "";
    double s = *d;  // to seconds
    if (unit == "nsecond" || unit == "ns") s *= 1e-9;
    else if (unit == "usecond" || unit == "us") s *= 1e-6;
    else if (unit == "msecond" || unit == "ms") s *= 1e-3;
    lines.push_back("duration              " + (s < 1e-3 ? fixed("%.1f us", s * 1e6) : fixed("%.3f ms", s * 1e3)) +
                    " (this launch, caches flushed by ncu)");
  }
  pct("memory throughput     ", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
      " of peak (the busiest of DRAM, L2, L1/shared)");
  pct("DRAM throughput       ", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", " of peak");
  pct("compute throughput    ", "sm__throughput.avg.pct_of_peak_sustained_elapsed", " of peak (the busiest SM pipe)");
  if (const auto a = k.get("sm__warps_active.avg.pct_of_peak_sustained_active")) {
    std::string l = "achieved occupancy    " + fixed("%.1f%%", *a);
    if (const auto t = k.get("sm__maximum_warps_per_active_cycle_pct")) l += fixed(" (theoretical %.1f%%)", *t);
    lines.push_back(l);
  }
  const auto stalls = top_stalls(k, 3);
  if (!stalls.empty()) {
    std::string l = "top stalls            ";
    for (size_t i = 0; i < stalls.size(); ++i)
      l += (i ? ", " : "") + stalls[i].first + fixed(" %.2f", stalls[i].second);
    lines.push_back(l + " (warp cycles per issued instruction)");
  }
  return lines;
}

std::map<std::string, double> parse_perf_stat_csv(const std::string& text) {
  // perf stat -x, : value,unit,event,run time,percentage,[metric value,metric unit]
  std::map<std::string, double> events;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 3) continue;
    std::string event = f[2];
    if (const size_t colon = event.find(':'); colon != std::string::npos) event = event.substr(0, colon);  // "cycles:u"
    char* end = nullptr;
    const double v = std::strtod(f[0].c_str(), &end);
    if (end != f[0].c_str()) events[event] = v;  // "<not counted>" and "<not supported>" are left out
  }
  return events;
}

namespace {

std::vector<std::string> solve_cpu_lines(const SolveCpus& s) {
  const int t = s.threads;
  std::vector<std::string> lines = {
      "CPUs busy in solve()  " + fixed("%.2f", s.busy) +
      (t > 0 ? " of " + std::to_string(t) + (t == 1 ? " thread" : " threads") : "") +
      " on average (the CPU time of all its threads over its wall time, in the timed calls)"};
  const std::string indent(22, ' ');
  if (s.waited_for >= 0.1)
    lines.push_back(indent + "+ " + fixed("%.2f", s.waited_for) +
                    " CPUs its threads were ready to use but waited for: other processes had them (profile again on "
                    "a quiet machine)");
  if (t >= 2 && s.busy + s.waited_for < 1.25)
    lines.push_back(indent + "about one CPU at a time: most of solve() runs on one thread (a serial part, a "
                    "critical section, or a parallel loop with too little work to share)");
  return lines;
}

}  // namespace

std::vector<std::string> perf_summary(const std::map<std::string, double>& e, std::optional<SolveCpus> solve) {
  std::vector<std::string> lines;
  const auto get = [&](const char* k) { const auto it = e.find(k); return it == e.end() ? 0.0 : it->second; };
  if (solve) {
    lines = solve_cpu_lines(*solve);
  } else if (get("task-clock") > 0 && get("duration_time") > 0) {
    lines.push_back("runner's CPU use      " + fixed("%.2f", get("task-clock") * 1e6 / get("duration_time")) +
                    " CPUs over the runner's whole life, its waits while the judge makes inputs and checks included "
                    "(not solve()'s own use)");
  }
  if (get("cycles") > 0 && get("instructions") > 0)
    lines.push_back("instructions/cycle   " + fixed(" %.2f", get("instructions") / get("cycles")));
  else if (!lines.empty())
    lines.push_back("no hardware counters here (a virtual machine, or perf_event_paranoid): CPU time only");
  if (get("cache-references") > 0)
    lines.push_back("cache misses          " + fixed("%.1f%%", 100 * get("cache-misses") / get("cache-references")) +
                    " of cache references (last-level cache)");
  if (get("branches") > 0)
    lines.push_back("branch misses         " + fixed("%.2f%%", 100 * get("branch-misses") / get("branches")) +
                    " of branches");
  if (lines.empty()) lines.push_back("perf counted nothing here (no access to the hardware counters: perf_event_paranoid?)");
  return lines;
}

std::string largest_case_here(const Problem& p, int cores) {
  std::string best;
  double most = -1;
  for (const Case& c : p.benchmarks()) {
    if (c.min_cores > cores) continue;
    const Model m = p.model(c);
    const double work = m.flops > 0 ? m.flops : m.bytes;
    if (work > most) most = work, best = c.name;
  }
  return best;
}

std::vector<std::string> ncu_prefix(const std::string& ncu, const std::vector<std::string>& mangled_kernels,
                                    int launches, const fs::path& report_base) {
  // A kernel in an anonymous namespace is mangled with a hash that each compile draws afresh
  // (_ZN44_GLOBAL__N__4f7730c0_11_solution_cu_b32257a811scan_expand...), and the names come from a compile of
  // their own, not the runner's library's: the hash matches any. (Mangled names are letters, digits and '_'
  // only, nothing a regex reads otherwise.)
  static const std::regex anonymous("_GLOBAL__N__[0-9a-f]+_");
  std::string names;
  for (const auto& k : mangled_kernels)
    names += (names.empty() ? "" : "|") + std::regex_replace(k, anonymous, "_GLOBAL__N__[0-9a-f]+_");
  // Only launches inside the runner's range around solve() (protocol/profiler_range.h): setup() may launch the
  // same kernels, untimed, before the first call (spmv's fast reference times its candidate plans there).
  std::vector<std::string> argv = {ncu, "--target-processes", "all", "--nvtx", "--nvtx-include",
                                   std::string(kProfileRangeName) + "/", "--set", "full", "--launch-count",
                                   std::to_string(std::max(1, launches)), "-f", "-o", report_base.string()};
  if (!names.empty()) argv.insert(argv.end(), {"--kernel-name-base", "mangled", "--kernel-name", "regex:^(" + names + ")$"});
  return argv;
}

std::vector<std::string> perf_prefix(const std::string& perf, const fs::path& out) {
  return {perf, "stat", "-x", ",", "-o", out.string(), "-e",
          "duration_time,task-clock,cycles,instructions,cache-references,cache-misses,branches,branch-misses", "--"};
}

}  // namespace hpcjudge
