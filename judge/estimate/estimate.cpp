#include "judge/estimate/estimate.h"

#include <cmath>
#include <cstdio>

#include "judge/reports/text.h"
#include "judge/timing/score.h"

namespace hpcjudge {

namespace {

using nlohmann::json;

json kernel_json(const KernelEstimate& k) {
  json lines = json::array();
  for (const LineEstimate& l : k.lines)
    lines.push_back({{"file", l.file}, {"line", l.line}, {"wasted_bytes", l.wasted_bytes}, {"conflicts", l.conflicts}});
  return {{"name", k.name},
          {"launches", k.launches},
          {"seconds", k.seconds},
          {"bound", k.bound},
          {"coalescing", k.coalescing},
          {"sectors_per_request", k.sectors_per_request},
          {"bank_conflict_degree", k.bank_conflict_degree},
          {"max_conflict_degree", k.max_conflict_degree},
          {"active_lanes", k.active_lanes},
          {"dram_bytes", k.dram_bytes},
          {"distinct_bytes", k.distinct_bytes},
          {"moved_bytes", k.moved_bytes},
          {"terms_s", {{"dram", k.dram_s}, {"l2", k.l2_s}, {"shared", k.shared_s}, {"issue", k.issue_s}, {"atomics", k.atomic_s}}},
          {"utilisation", k.utilisation},
          {"tail", k.tail},
          {"blocks_per_sm", k.blocks_per_sm},
          {"registers", k.registers ? json(*k.registers) : json(nullptr)},
          {"barriers", k.barriers},
          {"atomics", {{"count", k.atomics}, {"max_same_address", k.max_same_address}}},
          {"lines", lines}};
}

std::string bytes_text(double b) {
  char buf[40];
  if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else if (b >= 1e3) std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

// A kernel's line: its time, what bounds it, its memory figures; then its worst source lines.
void kernel_lines(const json& k, size_t top, std::vector<std::string>& out) {
  char buf[600], conflicts[80] = "";
  if (k.value("max_conflict_degree", 0) > 0)
    std::snprintf(conflicts, sizeof conflicts, ", bank conflicts %.1fx (worst %dx)", k.value("bank_conflict_degree", 1.0),
                  k.value("max_conflict_degree", 0));
  std::snprintf(buf, sizeof buf,
                "  kernel %s: %s (%s-bound), coalescing %.0f%%, %.1f sectors/request%s, %.1f active lanes, DRAM %s",
                terminal_safe(k.value("name", std::string())).c_str(), format_seconds(k.value("seconds", 0.0)).c_str(),
                terminal_text(k.value("bound", std::string())).c_str(), 100 * k.value("coalescing", 1.0),
                k.value("sectors_per_request", 0.0), conflicts, k.value("active_lanes", 32.0),
                bytes_text(k.value("dram_bytes", 0.0)).c_str());
  std::string line = buf;
  if (k.contains("registers") && k["registers"].is_number_integer())
    line += ", " + std::to_string(k["registers"].get<int>()) + " registers/thread (" +
            std::to_string(k.value("blocks_per_sm", 0)) + " blocks/SM)";
  out.push_back(line);
  if (!k.contains("lines") || !k["lines"].is_array()) return;
  size_t n = 0;
  for (const json& l : k["lines"]) {
    if (n++ == top) break;
    std::snprintf(buf, sizeof buf, "    %s:%d  %s wasted, %.0f conflict cycles",
                  terminal_text(l.value("file", std::string())).c_str(), l.value("line", 0),
                  bytes_text(l.value("wasted_bytes", 0.0)).c_str(), l.value("conflicts", 0.0));
    out.push_back(buf);
  }
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

json Estimate::to_json() const {
  json kernels = json::array();
  for (const KernelEstimate& k : submission.kernels) kernels.push_back(kernel_json(k));
  return {{"what", "an estimate of the GPU's time from the emulator's counts: not a measurement, never the score"},
          {"model", gpu ? gpu->name : ""},
          {"model_label", gpu ? gpu->label : ""},
          {"uncertainty_factor", gpu ? gpu->uncertainty_factor : 0.0},
          {"emulated_case", cases.emulated.name},
          {"modelled_case", cases.modelled.name},
          {"scale", {{"work", cases.scale.work}, {"traffic", cases.scale.traffic}}},
          {"kernels", kernels},
          {"registers_from", registers_from},
          {"launches", submission.launches},
          {"host_syncs", submission.host_syncs},
          {"compute_floor_seconds", submission.compute_floor_s},
          // None where nothing was counted (a counted call costs the judge's per-call overhead at least).
          {"seconds", submission.seconds > 0 ? json(submission.seconds) : json(nullptr)},
          {"fast_seconds", opt(fast_s)},
          {"baseline_seconds", opt(baseline_s)},
          {"score", opt(score)},
          {"score_interval", score_lo ? json{*score_lo, *score_hi} : json(nullptr)},
          {"note", note}};
}

Estimate estimate_submission(const Problem& p, const GpuModel& gpu, const EstimateCases& cases,
                             const protocol::EmulationCounts& counts,
                             const std::vector<std::pair<std::string, int>>& registers) {
  (void)p;
  Estimate e;
  e.gpu = &gpu;
  e.cases = cases;
  e.submission = estimate_call(counts, gpu, cases.scale, cases.modelled_flops, registers);
  return e;
}

double estimate_reference(const GpuModel& gpu, const EstimateCases& cases, const protocol::EmulationCounts& counts,
                          const std::vector<std::pair<std::string, int>>& registers) {
  return estimate_call(counts, gpu, cases.scale, cases.modelled_flops, registers).seconds;
}

void estimate_score(const Problem& p, Estimate& e) {
  if (!e.fast_s || !e.baseline_s || !e.gpu) return;
  // One case, as a measured grade with the cached scale scores it: the submission's time against the references',
  // its interval the model's stated factor either way.
  BenchResult b;
  b.name = e.cases.modelled.name;
  b.stats.median = e.submission.seconds;
  b.stats.median_ci = {e.submission.seconds / e.gpu->uncertainty_factor,
                       e.submission.seconds * e.gpu->uncertainty_factor};
  const Scale scale{{{b.name, *e.baseline_s, *e.fast_s}}, "", -1};
  const auto f = performance_estimate({b}, scale);
  if (!f) return;
  const Points& pts = p.info().points;
  e.score = pts.correctness + pts.performance * f->value;
  e.score_lo = pts.correctness + pts.performance * f->lo;
  e.score_hi = pts.correctness + pts.performance * f->hi;
}

std::vector<std::string> estimate_lines(const json& e, size_t top_lines) {
  std::vector<std::string> out;
  if (!e.is_object()) return out;
  char buf[400];
  const std::string label = terminal_text(e.value("model_label", std::string()));
  if (e.contains("score") && e["score"].is_number() && e.contains("score_interval") && e["score_interval"].is_array()) {
    const double s = e["score"].get<double>();
    const double pm = 0.5 * (e["score_interval"][1].get<double>() - e["score_interval"][0].get<double>());
    std::snprintf(buf, sizeof buf, "estimated score (no GPU; modelled %s): %.0f ± %.0f", label.c_str(), s, pm);
    out.push_back(buf);
  } else {
    out.push_back("estimated score (no GPU; modelled " + label + "): none (" +
                  terminal_text(e.value("note", std::string())) + ")");
  }
  if (e.contains("seconds") && e["seconds"].is_number()) {  // not where nothing was counted
    std::snprintf(buf, sizeof buf, "  %s modelled from %s: %s a call (%s for the fast reference)",
                  terminal_text(e.value("modelled_case", std::string())).c_str(),
                  terminal_text(e.value("emulated_case", std::string())).c_str(),
                  format_seconds(e["seconds"].get<double>()).c_str(),
                  e["fast_seconds"].is_number() ? format_seconds(e["fast_seconds"].get<double>()).c_str() : "-");
    out.push_back(buf);
  }
  if (e.contains("kernels") && e["kernels"].is_array())
    for (const json& k : e["kernels"]) kernel_lines(k, top_lines, out);
  return out;
}

}  // namespace hpcjudge
