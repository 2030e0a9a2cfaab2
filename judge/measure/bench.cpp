#include "judge/measure/bench.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>

#include "judge/measure/calibration.h"
#include "judge/measure/gpu.h"
#include "judge/timing/score.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* const kRoles[] = {"baseline", "fast", "vendor"};

std::string slugify(std::string s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "machine" : out;
}

std::string ms(const json& v) {
  if (!v.is_number()) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v.get<double>() * 1e3);
  return b;
}

std::string num(const json& v, const char* f) {
  if (!v.is_number()) return "-";
  char b[32];
  std::snprintf(b, sizeof b, f, v.get<double>());
  return b;
}

// A row's role's figure, or null where the row has no such role or figure. (operator[] on a const json with a
// missing key is undefined behaviour, not null: a CPU row read for its device figure once came back a number.)
json figure(const json& row, const char* role, const char* key) {
  const auto r = row.find(role);
  if (r == row.end() || !r->is_object()) return nullptr;
  const auto v = r->find(key);
  return v == r->end() ? json(nullptr) : *v;
}

// The fast reference against an anchor on one row: the vendor's time over the
// fast reference's ("vendor"), or the fast one's fraction of the peak ("peak");
// null where the row has no such figure. On the judge's clock, or (on_device) on
// the calls' device time, where the runners measured it (a GPU problem).
json versus(const json& row, const std::string& anchor, bool on_device = false) {
  const char* median = on_device ? "device_median_s" : "median_s";
  const char* percent = on_device ? "device_percent_of_peak" : "percent_of_peak";
  const json vendor = figure(row, "vendor", median), fast = figure(row, "fast", median);
  if (anchor == "vendor" && vendor.is_number() && fast.is_number()) return vendor.get<double>() / fast.get<double>();
  if (const json p = figure(row, "fast", percent); anchor == "peak" && p.is_number()) return p.get<double>() / 100;
  return nullptr;
}

// The fast reference's standing against the problem's bench target, on the
// rows the target names (judge BenchTarget): row["target"] = {anchor, at_least,
// value, met, on}. A GPU row's target is judged on the device time (`on`:
// "device"): a target says how good a kernel is, and the judge's clock also holds
// each call's fixed overhead (the runner woken, the GPU switched from the judge's
// context to the runner's: 0.2-0.4 ms a call on the H200), the same for every
// solution, which is most of a case of under a millisecond (docs/design.md,
// "make bench"). Where no device time was measured, on the judge's clock.
void mark_target(const BenchTarget& t, const std::map<std::string, Report>& reports, json& rows) {
  if (t.anchor.empty() || rows.empty()) return;
  std::string on = t.on;
  if (on == "largest" && reports.count("fast")) {  // the most work among the cases timed here
    double most = -1;
    for (const BenchResult& b : reports.at("fast").bench) {
      const double work = b.flops > 0 ? b.flops : b.bytes;
      const bool timed = std::any_of(rows.begin(), rows.end(), [&](const json& r) { return r["case"] == b.name; });
      if (timed && work > most) most = work, on = b.name;
    }
  }
  for (json& row : rows) {
    if ((on != "*" && row["case"] != on) || row.contains("target")) continue;  // the first target naming it
    const json on_device = versus(row, t.anchor, true);
    const json value = on_device.is_number() ? on_device : versus(row, t.anchor);
    row["target"] = {{"anchor", t.anchor},
                     {"at_least", t.at_least},
                     {"value", value},
                     {"on", on_device.is_number() ? "device" : "judge's clock"},
                     // null: not measured (its anchor failed, say), neither met nor missed
                     {"met", value.is_number() ? json(value.get<double>() >= t.at_least) : json(nullptr)}};
  }
}

std::string target_cell(const json& row) {
  if (!row.contains("target")) return "";
  const json& t = row["target"];
  const std::string on = t.value("on", "") == "device" ? " (device)" : "";
  return "≥" + num(t["at_least"], "%.2f") + " " + t.value("anchor", "") + on +
         (t["met"].is_null() ? ": not measured" : t["met"].get<bool>() ? ": met" : ": MISSED");
}

}  // namespace

int run_bench_table(const Paths& paths, const GradeOptions& base, const BenchOptions& b) {
  json results = {{"schema_version", 1}, {"problems", json::array()}};
  std::string machine_name, gpu_name;
  json machine;
  int failures = 0;
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  results["date"] = when;
  // This machine's peaks measured afresh (each kept only where higher than the
  // cache's): make bench is the run that sets the machine's scale, so a peak
  // first measured while the machine was busy does not stay too low.
  json cpu_peaks;  // the CPU problems' % peak is of these (a GPU problem's of the GPU's, in machine.peaks)
  {
    MachineInfo here = probe_machine(base.threads);
    std::printf("measuring this machine's peaks...\n");
    std::fflush(stdout);
    if (const auto cpu = machine_peaks(paths, here, Kind::CPU, base.device, true)) cpu_peaks = cpu->measured;
    if (!nvcc_path().empty() && probe_gpu(paths, base.device).usable()) {
      here.gpu = probe_gpu(paths, base.device).device;
      machine_peaks(paths, here, Kind::GPU, base.device, true);
    }
  }
  for (const Problem* p : Registry::all()) {
    const std::string slug = p->info().slug;
    if (!b.slugs.empty() && std::find(b.slugs.begin(), b.slugs.end(), slug) == b.slugs.end()) continue;
    if (p->info().kind == Kind::GPU && (nvcc_path().empty() || !probe_gpu(paths, base.device).usable())) {
      std::printf("%-18s skipped: no CUDA device here\n", slug.c_str());
      continue;
    }
    json prob = {{"problem", slug}, {"kind", kind_name(p->info().kind)}, {"solutions", json::object()}};
    std::map<std::string, Report> reports;
    for (const std::string role : kRoles) {
      const fs::path src = reference_solution(*p, paths, role);
      if (!fs::exists(src)) continue;
      std::printf("%-18s timing %s...\n", slug.c_str(), role.c_str());
      std::fflush(stdout);
      GradeOptions opt = base;
      opt.bench = true;
      opt.score = false;
      opt.vendor = role == "vendor";
      // The baseline and fast reference are AC tests of make test; a vendor anchor is tested nowhere else.
      opt.functional_tests = opt.vendor;
      opt.device_time = true;  // the judge's own references: their device time too (a GPU problem's)
      Listener quiet;
      Report r;
      try {
        r = grade(*p, src, opt, paths, quiet);
      } catch (const std::exception& e) {  // the judge's own failure: the row says so, the table goes on
        r.verdict = Verdict::JE;
        r.message = std::string("internal error: ") + e.what();
      }
      if (r.verdict != Verdict::AC) {
        ++failures;
        std::printf("%-18s %s: %s %s\n", slug.c_str(), role.c_str(), verdict_name(r.verdict), r.message.c_str());
      }
      prob["solutions"][role] = {{"file", fs::relative(src, paths.root).string()},
                                 {"verdict", verdict_name(r.verdict)},
                                 {"message", r.message}};
      if (machine.is_null() || (!r.machine.gpu.is_null() && machine.value("gpu", json()).is_null()))
        machine = r.machine.to_json();
      if (!r.machine.gpu.is_null()) gpu_name = r.machine.gpu.value("name", "");
      // Each solution's medians as soon as they are measured: a run cut short still says what it timed.
      for (const BenchResult& br : r.bench)
        if (br.verdict == Verdict::AC)
          std::printf("%-18s %-8s %-20s %10.3f ms  %zu runs\n", slug.c_str(), role.c_str(), br.name.c_str(),
                      br.stats.median * 1e3, br.stats.runs);
      std::fflush(stdout);
      reports[role] = std::move(r);
    }
    // The scale of the score on this machine, timed in this run: cached for the judge.
    if (reports.count("baseline") && reports.count("fast") && reports["baseline"].verdict == Verdict::AC &&
        reports["fast"].verdict == Verdict::AC)
      save_scale(*p, paths, reports["fast"].machine, reports["baseline"], reports["fast"]);
    prob["cases"] = json::array();
    for (const Case& c : p->benchmarks()) {
      json row = {{"case", c.name}, {"sizes", c.size_string()}};
      for (const auto& [role, r] : reports)
        for (const BenchResult& br : r.bench)
          if (br.name == c.name && br.verdict == Verdict::AC) {
            row[role] = {{"median_s", br.stats.median},
                         {"runs", br.stats.runs},
                         {"rate", br.flops > 0 ? br.gflops() : br.gbps()},
                         {"unit", br.flops > 0 ? "GFLOP/s" : "GB/s"},
                         {"percent_of_peak", br.percent_of_peak ? json(*br.percent_of_peak) : json(nullptr)}};
            if (br.device) {
              row[role]["device_median_s"] = br.device->median;
              row[role]["device_percent_of_peak"] =
                  br.device_percent_of_peak ? json(*br.device_percent_of_peak) : json(nullptr);
            }
          }
      if (!row.contains("fast")) continue;
      const double fast = row["fast"]["median_s"];
      // Against the anchor: the vendor's time where there is one, else the measured peak.
      const std::string anchor = row.contains("vendor") ? "vendor" : "peak";
      if (const json v = versus(row, anchor); v.is_number()) {
        row["anchor"] = anchor;
        row["fast_vs_anchor"] = v;
      }
      if (const json v = versus(row, anchor, true); v.is_number()) {
        row["anchor"] = anchor;
        row["fast_vs_anchor_on_device"] = v;
      }
      if (row.contains("baseline")) row["fast_speedup_over_baseline"] = row["baseline"]["median_s"].get<double>() / fast;
      prob["cases"].push_back(row);
    }
    for (const BenchTarget& t : p->info().bench_targets) mark_target(t, reports, prob["cases"]);
    results["problems"].push_back(prob);
  }
  if (!cpu_peaks.is_null()) machine["cpu_peaks"] = cpu_peaks;
  results["machine"] = machine;
  machine_name = !b.name.empty() ? b.name : slugify(!gpu_name.empty() ? gpu_name : machine.value("cpu_model", ""));

  // The table: one row per case.
  std::string md = "# make bench: " + machine_name + "\n\n";
  md += std::string("Measured ") + when + " on " + machine.value("cpu_model", "") +
        (gpu_name.empty() ? "" : " with an " + gpu_name) + ". Times are medians in ms on the judge's clock (what a "
        "score sees: each call's interval less the round trip measured before the solution was loaded); fast on "
        "device: the fast reference's calls timed by events of its own CUDA context, from the GPU taking the "
        "call's work up to the end of its synchronise (a GPU problem's; the kernels' own speed, without the "
        "per-call overhead of the judge's clock); rate and % peak are the fast reference's, on the judge's clock "
        "and on the device; vs anchor: the vendor's time over the fast reference's (above 1: faster than the "
        "vendor), or, without a vendor anchor, the fraction of the measured peak, on the judge's clock / on the "
        "device; target: the bar the fast reference must clear on that case, against the vendor (its time over "
        "the vendor's, at least) or the peak, judged on the device time where there is one.\n\n";
  md += "| problem | case | baseline | fast | vendor | fast on device | rate | % peak | % peak on device | vs anchor "
        "| target |\n";
  md += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  std::printf("\n%-18s %-20s %10s %10s %10s %10s %12s %7s %7s %18s  %s\n", "problem", "case", "base ms", "fast ms",
              "vendor ms", "fast dev", "rate", "% peak", "% dev", "vs anchor", "target");
  int met = 0, missed = 0, unmeasured = 0;
  for (const json& prob : results["problems"])
    for (const json& row : prob["cases"]) {
      const json none;
      const json& f = row["fast"];
      const std::string rate = num(f["rate"], "%.1f") + " " + f.value("unit", "");
      std::string anchor = "-";
      if (row.contains("fast_vs_anchor")) {
        anchor = num(row["fast_vs_anchor"], "%.2f");
        if (row.contains("fast_vs_anchor_on_device")) anchor += " / " + num(row["fast_vs_anchor_on_device"], "%.2f");
        anchor += " (" + row.value("anchor", "") + ")";
      }
      const std::string base = ms(row.contains("baseline") ? row["baseline"]["median_s"] : none);
      const std::string vend = ms(row.contains("vendor") ? row["vendor"]["median_s"] : none);
      const std::string dev = ms(f.contains("device_median_s") ? f["device_median_s"] : none);
      const std::string peak = num(f["percent_of_peak"], "%.0f");
      const std::string dev_peak = num(f.contains("device_percent_of_peak") ? f["device_percent_of_peak"] : none, "%.0f");
      const std::string target = target_cell(row);
      if (row.contains("target"))
        ++(row["target"]["met"].is_null() ? unmeasured : row["target"]["met"].get<bool>() ? met : missed);
      std::printf("%-18s %-20s %10s %10s %10s %10s %12s %7s %7s %18s  %s\n", prob["problem"].get<std::string>().c_str(),
                  row["case"].get<std::string>().c_str(), base.c_str(), ms(f["median_s"]).c_str(), vend.c_str(),
                  dev.c_str(), rate.c_str(), peak.c_str(), dev_peak.c_str(), anchor.c_str(), target.c_str());
      md += "| " + prob["problem"].get<std::string>() + " | " + row["case"].get<std::string>() + " | " + base + " | " +
            ms(f["median_s"]) + " | " + vend + " | " + dev + " | " + rate + " | " + peak + " | " + dev_peak + " | " +
            anchor + " | " + target + " |\n";
    }
  const std::string targets = "targets: " + std::to_string(met) + " met, " + std::to_string(missed) + " missed" +
                              (unmeasured ? ", " + std::to_string(unmeasured) + " not measured" : "");
  std::printf("\n%s\n", targets.c_str());
  md += "\n" + targets + ".\n";
  results["targets"] = {{"met", met}, {"missed", missed}, {"not_measured", unmeasured}};
  if (machine.contains("peaks"))
    md += "\nPeaks measured on this machine: " + machine["peaks"].dump() + "\n";
  if (machine.contains("cpu_peaks"))
    md += "\nCPU peaks measured on this machine: " + machine["cpu_peaks"].dump() + "\n";
  std::error_code ec;
  fs::create_directories(b.out, ec);
  const fs::path base_name = fs::path(b.out) / machine_name;
  std::ofstream(base_name.string() + ".json") << results.dump(2) << "\n";
  std::ofstream(base_name.string() + ".md") << md;
  std::printf("\nwritten: %s.json and %s.md\n", base_name.c_str(), base_name.c_str());
  if (failures > 0) std::printf("%d reference or anchor solution(s) not AC: see above\n", failures);
  return failures > 0 ? 1 : 0;
}

}  // namespace hpcjudge
