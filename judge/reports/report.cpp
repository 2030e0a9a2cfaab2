#include "judge/reports/report.h"

#include <cmath>

namespace hpcjudge {

using nlohmann::json;

namespace {
template <class T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

json test_json(const TestResult& t) {
  return {{"name", t.name},
          {"sizes", t.sizes},
          {"verdict", verdict_name(t.verdict)},
          {"seconds", t.seconds},
          {"message", t.message},
          {"summary", t.summary},
          {"max_abs_err", t.max_abs_err},
          {"max_rel_err", t.max_rel_err},
          {"device_peak_bytes", opt(t.device_peak_bytes)}};
}

// A case's ratios to a reference timed beside it (its "side_by_side" entries).
json paired_json(const BenchResult::Paired& q) {
  return {{"role", q.role},
          {"pairs", q.pairs},
          {"median_ratio", std::exp(q.median_log)},
          {"ratio_interval", {std::exp(q.ci.lo), std::exp(q.ci.hi)}},
          {"median_s", q.stats.median},
          {"min_s", q.stats.min},
          {"max_s", q.stats.max}};
}

json bench_json(const BenchResult& b) {
  json paired = json::array();
  for (const auto& q : b.paired) paired.push_back(paired_json(q));
  return {{"name", b.name},
          {"sizes", b.sizes},
          {"verdict", verdict_name(b.verdict)},
          {"message", b.message},
          {"runs", b.stats.runs},
          {"mean_s", b.stats.mean},
          {"median_s", b.stats.median},
          {"median_interval_s", {b.stats.median_ci.lo, b.stats.median_ci.hi}},
          {"min_s", b.stats.min},
          {"max_s", b.stats.max},
          {"stddev_s", b.stats.stddev},
          {"spread", b.stats.spread()},
          {"stop", b.stop},
          {"bytes", b.bytes},
          {"flops", b.flops},
          {"gbps", b.gbps()},
          {"gflops", b.gflops()},
          {"edges", b.edges},
          {"gteps", b.edges > 0 ? json(b.gteps()) : json(nullptr)},
          {"device_peak_bytes", opt(b.device_peak_bytes)},
          {"percent_of_peak", opt(b.percent_of_peak)},
          {"device_median_s", b.device ? json(b.device->median) : json(nullptr)},
          {"device_runs", b.device ? json(b.device->runs) : json(nullptr)},
          {"device_percent_of_peak", opt(b.device_percent_of_peak)},
          {"baseline_median_s", opt(b.baseline_s)},
          {"baseline_from", b.baseline_from},
          {"fast_median_s", opt(b.fast_s)},
          {"fast_from", b.fast_from},
          {"scale_floor_s", opt(b.scale_floor_s)},
          {"share", opt(b.share)},
          {"side_by_side", paired},
          {"wall_s",
           {{"lay_out", b.wall.lay_out},
            {"inputs", b.wall.inputs},
            {"calls", b.wall.calls},
            {"checks", b.wall.checks},
            {"total", b.wall.total}}}};
}

json score_json(const Score& score) {
  return {{"total", score.total()},
          {"max", score.max},
          {"correctness", score.correctness},
          {"performance", score.performance},
          {"bonus", score.bonus},
          {"performance_fraction", opt(score.fraction)},
          {"performance_interval",
           score.performance_lo ? json{*score.performance_lo, *score.performance_hi} : json(nullptr)},
          {"plus_minus", opt(score.plus_minus())},
          {"noise", score.noise},
          {"note", score.note}};
}

json emulation_json(const std::vector<std::pair<std::string, std::string>>& skipped) {
  json e = {{"what", "the submission's CUDA ran on the CPU (CPU emulation): correctness only, no timing"},
            {"skipped_tests", json::array()}};
  for (const auto& [name, why] : skipped) e["skipped_tests"].push_back({{"name", name}, {"why", why}});
  return e;
}

}  // namespace

bool readable_report(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("problem") || !j["problem"].is_string() || !j.contains("verdict") ||
      !j["verdict"].is_string())
    return false;
  if (!j.contains("score")) return true;
  const nlohmann::json& s = j["score"];
  return s.is_object() && (!s.contains("total") || s["total"].is_number());
}

nlohmann::json Report::to_json() const {
  json j;
  j["schema_version"] = kSchemaVersion;
  j["problem"] = problem;
  j["file"] = file;
  j["source_key"] = source_key;
  if (seed_secret) j["seed"] = "secret";
  else j["seed"] = seed;
  j["verdict"] = verdict_name(verdict);
  j["message"] = message;
  j["compile"] = {{"ok", compiled},
                  {"seconds", compile_seconds},
                  {"cached", compile_cached},
                  {"command", compile_command},
                  {"log", compile_log}};
  if (!compile_arch.empty()) j["compile"]["arch"] = compile_arch;
  j["kernels"] = json::array();
  for (const auto& k : kernels) j["kernels"].push_back(k.to_json());
  j["tests"] = json::array();
  for (const auto& t : tests) j["tests"].push_back(test_json(t));
  j["bench"] = json::array();
  for (const auto& b : bench) j["bench"].push_back(bench_json(b));
  j["score"] = score_json(score);
  j["device_peak_bytes"] = opt(device_peak_bytes);
  j["machine"] = machine.to_json();
  j["timing"] = timing;
  if (emulated) {
    j["emulated"] = true;
    j["emulation"] = emulation_json(emulation_skipped);
    if (!estimate.is_null()) j["emulation"]["estimate"] = estimate;
  }
  j["output"] = {{"text", output}, {"bytes", output_bytes}, {"truncated", output_bytes > output.size()}};
  if (!graded_from.empty()) j["graded_from"] = graded_from.to_json();
  if (!source_path.empty()) j["source_path"] = source_path;
  if (!participant.empty()) j["participant"] = participant;
  if (!graded_at.empty()) j["graded_at"] = graded_at;
  if (!isolation.empty()) j["isolation"] = isolation;
  if (!settings.empty()) {
    j["settings"] = json::object();
    for (const auto& [name, value] : settings) j["settings"][name] = value;
  }
  return j;
}

}  // namespace hpcjudge
