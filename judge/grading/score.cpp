#include "judge/grading/score.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <span>

#include "harness/generators.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

constexpr int kScaleVersion = 2;  // 2: the reference solutions' digest is part of the key

}  // namespace

fs::path reference_solution(const Problem& p, const Paths& paths, const std::string& role) {
  return paths.root / "reference" / "solutions" / p.info().slug / (role + "." + p.info().source_ext);
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
  std::ifstream in(file);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || j.value("version", 0) != kScaleVersion || j.value("fingerprint", "") != fingerprint ||
      j.value("references", "") != digest)
    return std::nullopt;
  Scale s;
  for (const auto& c : j["cases"]) s.cases.push_back({c["name"], c["baseline_s"], c["fast_s"]});
  return s;
}

void write_scale_cache(const fs::path& file, const std::string& fingerprint, const std::string& digest,
                       const Scale& scale) {
  nlohmann::json j = {{"version", kScaleVersion},
                      {"fingerprint", fingerprint},
                      {"references", digest},
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

Scale load_or_measure_scale(const Problem& p, const Paths& paths, const GradeOptions& opt, const MachineInfo& m,
                            Listener& listener) {
  if (auto cached = read_cached_scale(scale_file(p, paths, m), m.fingerprint(), references_of(p, paths)))
    return *cached;
  GradeOptions ref = opt;
  ref.bench = true;
  ref.score = false;
  Listener quiet;
  Report rep[2];
  const char* roles[2] = {"baseline", "fast"};
  for (int k = 0; k < 2; ++k) {
    const fs::path src = reference_solution(p, paths, roles[k]);
    if (!fs::exists(src)) return {{}, "no " + src.string()};
    listener.note(std::string("timing the ") + roles[k] + " reference solution on this machine (once; cached)");
    rep[k] = grade(p, src, ref, paths, quiet);
    if (rep[k].verdict != Verdict::AC)
      return {{}, std::string("the ") + roles[k] + " reference solution got " + verdict_name(rep[k].verdict) + ": " +
                      rep[k].message};
  }
  return save_scale(p, paths, m, rep[0], rep[1]);
}

Scale save_scale(const Problem& p, const Paths& paths, const MachineInfo& m, const Report& baseline,
                 const Report& fast) {
  Scale s;
  for (size_t i = 0; i < baseline.bench.size() && i < fast.bench.size(); ++i)
    s.cases.push_back({baseline.bench[i].name, baseline.bench[i].stats.median, fast.bench[i].stats.median});
  write_scale_cache(scale_file(p, paths, m), m.fingerprint(), references_of(p, paths), s);
  return s;
}

std::optional<double> performance_fraction(const std::vector<BenchResult>& bench, const Scale& scale) {
  double num = 0, den = 0;
  int used = 0;
  for (const auto& b : bench) {
    auto it = std::find_if(scale.cases.begin(), scale.cases.end(), [&](const CaseScale& c) { return c.name == b.name; });
    if (it == scale.cases.end() || b.stats.median <= 0 || it->fast_s <= 0) continue;
    num += std::log(it->baseline_s / b.stats.median);
    den += std::log(it->baseline_s / it->fast_s);
    ++used;
  }
  if (used == 0) return std::nullopt;
  // A fast reference no faster than the baseline here: full marks for matching it.
  if (den <= 0) return num >= den ? 1.0 : 0.0;
  return std::clamp(num / den, 0.0, kMaxFraction);
}

void score_report(const Problem& p, const Paths& paths, const GradeOptions& opt, Report& r, Listener& listener) {
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
  const Scale scale = load_or_measure_scale(p, paths, opt, r.machine, listener);
  if (!scale.error.empty()) {
    r.score.note = "no performance scale on this machine: " + scale.error;
    return;
  }
  for (auto& b : r.bench)
    for (const auto& c : scale.cases)
      if (c.name == b.name) {
        b.baseline_s = c.baseline_s;
        b.fast_s = c.fast_s;
      }
  r.score.fraction = performance_fraction(r.bench, scale);
  if (!r.score.fraction) {
    r.score.note = "no performance case was timed";
    return;
  }
  r.score.performance = pts.performance * *r.score.fraction;
  r.score.bonus = std::max(0.0, r.score.performance - pts.performance);
}

}  // namespace hpcjudge
