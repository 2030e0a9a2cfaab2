#include "judge/timing/score.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <span>

#include "sdk/generators.h"
#include "judge/files.h"
#include "judge/machine/cpu_activity.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

constexpr int kScaleVersion = 2;  // 2: the reference solutions' digest is part of the key

}  // namespace

fs::path reference_solution(const Problem& p, const Paths& paths, const std::string& role) {
  return paths.root / "problems" / p.info().slug / "solutions" / (role + "." + p.info().source_ext);
}

std::string reference_digest(const fs::path& baseline, const fs::path& fast) {
  std::string bytes;
  for (const fs::path& f : {baseline, fast}) {
    std::ifstream in(f, std::ios::binary);
    bytes.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    bytes.push_back('\0');  // "ab" + "c" differs from "a" + "bc"
  }
  return hex_key(gen::fnv1a(std::as_bytes(std::span(bytes.data(), bytes.size()))));
}

std::optional<Scale> read_cached_scale(const fs::path& file, const std::string& fingerprint,
                                       const std::string& digest) {
  const auto j = tolerant::read_file(file, 1 << 20);
  if (j.is_discarded() || !j.is_object() || j.value("version", 0) != kScaleVersion ||
      j.value("fingerprint", "") != fingerprint || j.value("references", "") != digest)
    return std::nullopt;
  // The cache is a file on disk, edited or cut short as any file can be: without its cases, or with a case
  // lacking its name or a time, it is no scale and the references are timed again. (operator[] on a const json
  // lacking the key stops the judge, protocol/json.h.)
  const auto cases = j.find("cases");
  if (cases == j.end() || !cases->is_array()) return std::nullopt;
  Scale s;
  for (const auto& c : *cases) {
    const auto name = c.find("name"), base = c.find("baseline_s"), fast = c.find("fast_s");  // end() on a non-object
    if (name == c.end() || !name->is_string() || base == c.end() || !base->is_number() || fast == c.end() ||
        !fast->is_number())
      return std::nullopt;
    s.cases.push_back({*name, *base, *fast});
  }
  s.load_per_core = j.value("load_per_core", -1.0);
  return s;
}

bool retime_busy_scale(double cached_load_per_core, double now_load_per_core) {
  return cached_load_per_core > kBusyScaleLoad && now_load_per_core >= 0 && now_load_per_core <= kQuietLoad;
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0;
  if (!in || !(in >> one)) return -1;
  return one;
}

double load_per_core(int cores) {
  const double load = load_average();
  return load < 0 || cores <= 0 ? -1 : load / cores;
}

void write_scale_cache(const fs::path& file, const std::string& fingerprint, const std::string& digest,
                       const Scale& scale) {
  nlohmann::json j = {{"version", kScaleVersion},
                      {"fingerprint", fingerprint},
                      {"references", digest},
                      {"load_per_core", scale.load_per_core},
                      {"cases", nlohmann::json::array()}};
  for (const auto& c : scale.cases)
    j["cases"].push_back({{"name", c.name}, {"baseline_s", c.baseline_s}, {"fast_s", c.fast_s}});
  write_cache_file(file, j.dump(2) + "\n");
}

namespace {

std::string references_of(const Problem& p, const Paths& paths) {
  return reference_digest(reference_solution(p, paths, "baseline"), reference_solution(p, paths, "fast"));
}

fs::path scale_file(const Problem& p, const Paths& paths, const MachineInfo& m) {
  return paths.machine_cache_file("scale-" + p.info().slug, m.fingerprint());
}

}  // namespace

std::optional<Scale> cached_scale_in_use(const Problem& p, const Paths& paths, const MachineInfo& m,
                                         std::string* busy) {
  auto cached = read_cached_scale(scale_file(p, paths, m), m.fingerprint(), references_of(p, paths));
  if (!cached) return std::nullopt;
  const double now = load_per_core(m.cores);
  if (!retime_busy_scale(cached->load_per_core, now)) return cached;
  if (busy) {
    char why[200];
    std::snprintf(why, sizeof why,
                  "the cached scale was measured on a busy machine (load %.2f per core; %.2f now): timing it again",
                  cached->load_per_core, now);
    *busy = why;
  }
  return std::nullopt;
}

Scale save_scale(const Problem& p, const Paths& paths, const MachineInfo& m, const Report& baseline,
                 const Report& fast) {
  Scale s;
  for (size_t i = 0; i < baseline.bench.size() && i < fast.bench.size(); ++i)
    s.cases.push_back({baseline.bench[i].name, baseline.bench[i].stats.median, fast.bench[i].stats.median});
  s.load_per_core = load_per_core(m.cores);
  write_scale_cache(scale_file(p, paths, m), m.fingerprint(), references_of(p, paths), s);
  return s;
}

std::optional<Fraction> performance_estimate(const std::vector<BenchResult>& bench, const Scale& scale) {
  double num = 0, den = 0, var = 0;
  int used = 0;
  std::vector<std::string> floored;
  std::vector<std::pair<std::string, double>> shares;
  const double min_span = std::log(kMinScaleSpan);
  for (const auto& b : bench) {
    auto it = std::find_if(scale.cases.begin(), scale.cases.end(), [&](const CaseScale& c) { return c.name == b.name; });
    const CaseScale* cached = it == scale.cases.end() || it->fast_s <= 0 || it->baseline_s <= 0 ? nullptr : &*it;
    const BenchResult::Paired* fast = b.paired_with("fast");
    const BenchResult::Paired* base = b.paired_with("baseline");
    if (b.stats.median <= 0) continue;
    // ln(t_base / t), ln(t_base / t_fast), the half-width of the first (log units); ln(t / t_fast) and its half-width.
    double n = 0, d = 0, h = 0, to_fast = 0, h_fast = 0;
    if (fast && base) {
      n = -base->median_log;
      d = fast->median_log - base->median_log;
      h = std::hypot(base->ci.half_width(), fast->ci.half_width());
      to_fast = fast->median_log;
      h_fast = fast->ci.half_width();
    } else if (fast && cached) {
      d = std::log(cached->baseline_s / cached->fast_s);
      n = d - fast->median_log;
      h = h_fast = fast->ci.half_width();
      to_fast = fast->median_log;
    } else if (cached) {
      n = std::log(cached->baseline_s / b.stats.median);
      d = std::log(cached->baseline_s / cached->fast_s);
      if (b.stats.median_ci.lo > 0) h = 0.5 * std::log(b.stats.median_ci.hi / b.stats.median_ci.lo);
      to_fast = d - n;
      h_fast = h;
    } else {
      continue;
    }
    if (d < min_span) {  // too narrow a span to score on: from kMinScaleSpan x the fast reference's time
      d = min_span;
      n = min_span - to_fast;
      h = h_fast;
      floored.push_back(b.name);
    }
    shares.push_back({b.name, std::clamp(n / d, 0.0, kMaxFraction)});
    num += n;
    den += d;
    var += h * h;
    ++used;
  }
  if (used == 0) return std::nullopt;
  const double h = std::sqrt(var);
  auto clamped = [](double x) { return std::clamp(x, 0.0, kMaxFraction); };
  return Fraction{clamped(num / den), clamped((num - h) / den), clamped((num + h) / den), floored, shares};
}

std::optional<double> performance_fraction(const std::vector<BenchResult>& bench, const Scale& scale) {
  const auto e = performance_estimate(bench, scale);
  if (!e) return std::nullopt;
  return e->value;
}

std::string machine_noise(const Report& r) {
  std::string why;
  if (const double one = load_average(); one >= 0) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "load average %.2f on %d cores", one, r.machine.cores);
    why = buf;
    // The judge's own spinners count in it while they spin (judge/timing/wake_latency.h).
    if (r.timing.is_object() && r.timing.value("cpus_spinning_in_calls", 0) > 0) {
      std::snprintf(buf, sizeof buf, ", with the judge's %d spinning threads in it for %.2f s of calls",
                    r.timing.value("cpus_spinning_in_calls", 0), r.timing.value("cpus_spinning_s", 0.0));
      why += buf;
    }
  }
  // The CPU time of the processes that are not the judge's, and the hypervisor's steal (judge/machine/cpu_activity.h)
  if (r.timing.is_object() && r.timing.contains("cpu_beside_timing"))
    if (const std::string cpu = CpuActivity::from_json(r.timing["cpu_beside_timing"]).describe(); !cpu.empty())
      why += (why.empty() ? "" : "; ") + cpu;
  const nlohmann::json& g = r.machine.gpu;
  if (g.is_object() && g.contains("sensors_before_bench") && g.contains("sensors_after_bench")) {
    const auto& a = g["sensors_before_bench"];
    const auto& b = g["sensors_after_bench"];
    if (a.contains("sm_clock_mhz") && b.contains("sm_clock_mhz")) {
      why += (why.empty() ? "" : "; ") + std::string("GPU clock ") + a["sm_clock_mhz"].dump() + " MHz before the timing, " +
             b["sm_clock_mhz"].dump() + " MHz after";
    }
    if (b.contains("processes")) why += "; " + b["processes"].dump() + " process(es) on the GPU";
  }
  if (r.timing.is_object() && r.timing.value("cpus_kept_awake", true) == false)
    why += (why.empty() ? "" : "; ") + std::string("the CPUs were free to sleep between calls (holding them awake, "
                                                   "/dev/cpu_dma_latency, needs root)");
  // A quiet machine narrows only so much: a call of well under a millisecond carries the call's own overhead.
  std::string short_cases;
  for (const BenchResult& b : r.bench)
    if (b.stats.median > 0 && b.stats.median < kShortCallS)
      short_cases += (short_cases.empty() ? "" : ", ") + b.name + " " + format_seconds(b.stats.median, TimeStyle::Short);
  if (!short_cases.empty())
    why += (why.empty() ? "" : "; ") + std::string("cases of under a millisecond a call (") + short_cases +
           "), whose times carry each call's own overhead, which a quiet machine does not remove: the runner woken, "
           "and on a GPU the device switching to the runner's context (0.1-0.2 ms on an H200)";
  return why.empty() ? "the runs' times spread widely" : why;
}

void score_report(const Problem& p, const GradeOptions& opt, Report& r, const std::function<Scale()>& scale_in_use) {
  const Points& pts = p.info().points;
  r.score.max = pts.total();
  if (r.verdict != Verdict::AC) {
    r.score.note = std::string("no points without AC (") + verdict_name(r.verdict) + ")";
    return;
  }
  r.score.correctness = pts.correctness;
  if (!opt.bench) {
    r.score.note = "performance not measured (--no-bench)";
    return;
  }
  const Scale scale = scale_in_use();
  if (!scale.error.empty()) {
    r.score.note = "no performance scale on this machine: " + scale.error;
    return;
  }
  for (auto& b : r.bench) {
    for (const auto& c : scale.cases)
      if (c.name == b.name) {
        b.baseline_s = c.baseline_s;
        b.fast_s = c.fast_s;
        b.baseline_from = b.fast_from = "cached";
      }
    // This run's ratios, as times: the case's median over the ratio to each rival.
    if (const auto* f = b.paired_with("fast")) {
      b.fast_s = b.stats.median / std::exp(f->median_log);
      b.fast_from = "side by side";
    }
    if (const auto* base = b.paired_with("baseline")) {
      b.baseline_s = b.stats.median / std::exp(base->median_log);
      b.baseline_from = "side by side";
    }
  }
  const auto estimate = performance_estimate(r.bench, scale);
  if (!estimate) {
    r.score.note = "no performance case was timed";
    return;
  }
  for (auto& b : r.bench)
    if (b.fast_s && std::find(estimate->floored.begin(), estimate->floored.end(), b.name) != estimate->floored.end())
      b.scale_floor_s = kMinScaleSpan * *b.fast_s;
  for (auto& b : r.bench)
    for (const auto& [name, share] : estimate->shares)
      if (name == b.name) b.share = share;
  r.score.fraction = estimate->value;
  r.score.performance = pts.performance * estimate->value;
  r.score.performance_lo = pts.performance * estimate->lo;
  r.score.performance_hi = pts.performance * estimate->hi;
  r.score.bonus = std::max(0.0, r.score.performance - pts.performance);
  if (*r.score.performance_hi - *r.score.performance_lo > 2 * kNoisyPoints) r.score.noise = machine_noise(r);
}

}  // namespace hpcjudge
