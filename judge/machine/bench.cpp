#include "judge/machine/bench.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>

#include "judge/machine/calibration.h"
#include "judge/machine/gpu.h"
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

// What one `judge bench` run gathers: the results' JSON, the machine its figures were taken on, and the
// solutions not AC.
struct BenchRun {
  json results = {{"schema_version", 1}, {"problems", json::array()}};
  json machine;
  std::string gpu_name;
  int failures = 0;
};

std::string utc_now_iso() {
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return when;
}

bool gpu_runs_here(const Paths& paths, int device) {
  return !nvcc_path().empty() && probe_gpu(paths, device).usable();
}

// This machine's peaks measured afresh (each kept only where higher than the cache's): make bench is the run
// that sets the machine's scale, so a peak first measured while the machine was busy does not stay too low.
// Returns the CPU's (the CPU problems' % peak is of these; a GPU problem's of the GPU's, in machine.peaks).
json measure_peaks(const Paths& paths, const GradeOptions& base) {
  json cpu_peaks;
  MachineInfo here = probe_machine(base.threads);
  std::printf("measuring this machine's peaks...\n");
  std::fflush(stdout);
  if (const auto cpu = machine_peaks(paths, here, Kind::CPU, base.device, true)) cpu_peaks = cpu->measured;
  if (gpu_runs_here(paths, base.device)) {
    here.gpu = probe_gpu(paths, base.device).device;
    machine_peaks(paths, here, Kind::GPU, base.device, true);
  }
  return cpu_peaks;
}

// One reference solution (a role: baseline, fast or vendor) graded and timed; a failure of the judge's own is
// the row's JE, and the table goes on.
Report time_solution(const Problem& p, const fs::path& src, const std::string& role, const GradeOptions& base,
                     const Paths& paths) {
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
    r = grade(p, src, opt, paths, quiet);
  } catch (const std::exception& e) {
    r.verdict = Verdict::JE;
    r.message = std::string("internal error: ") + e.what();
  }
  return r;
}

// Each solution's medians as soon as they are measured: a run cut short still says what it timed.
void print_medians(const std::string& slug, const std::string& role, const Report& r) {
  for (const BenchResult& br : r.bench)
    if (br.verdict == Verdict::AC)
      std::printf("%-18s %-8s %-20s %10.3f ms  %zu runs\n", slug.c_str(), role.c_str(), br.name.c_str(),
                  br.stats.median * 1e3, br.stats.runs);
  std::fflush(stdout);
}

// A problem's baseline, fast reference and vendor anchor, each that exists timed: their reports by role, and
// each one's entry in prob["solutions"].
std::map<std::string, Report> time_roles(const Problem& p, const Paths& paths, const GradeOptions& base, json& prob,
                                         BenchRun& run) {
  const std::string slug = p.info().slug;
  std::map<std::string, Report> reports;
  for (const std::string role : kRoles) {
    const fs::path src = reference_solution(p, paths, role);
    if (!fs::exists(src)) continue;
    std::printf("%-18s timing %s...\n", slug.c_str(), role.c_str());
    std::fflush(stdout);
    Report r = time_solution(p, src, role, base, paths);
    if (r.verdict != Verdict::AC) {
      ++run.failures;
      std::printf("%-18s %s: %s %s\n", slug.c_str(), role.c_str(), verdict_name(r.verdict), r.message.c_str());
    }
    prob["solutions"][role] = {{"file", fs::relative(src, paths.root).string()},
                               {"verdict", verdict_name(r.verdict)},
                               {"message", r.message}};
    if (run.machine.is_null() || (!r.machine.gpu.is_null() && run.machine.value("gpu", json()).is_null()))
      run.machine = r.machine.to_json();
    if (!r.machine.gpu.is_null()) run.gpu_name = r.machine.gpu.value("name", "");
    print_medians(slug, role, r);
    reports[role] = std::move(r);
  }
  return reports;
}

// A role's figures on one case: median, runs, rate and % of peak, on the judge's clock and on the device.
json role_figures(const BenchResult& br) {
  json f = {{"median_s", br.stats.median},
            {"runs", br.stats.runs},
            {"rate", br.flops > 0 ? br.gflops() : br.gbps()},
            {"unit", br.flops > 0 ? "GFLOP/s" : "GB/s"},
            {"percent_of_peak", br.percent_of_peak ? json(*br.percent_of_peak) : json(nullptr)}};
  if (br.device) {
    f["device_median_s"] = br.device->median;
    f["device_percent_of_peak"] = br.device_percent_of_peak ? json(*br.device_percent_of_peak) : json(nullptr);
  }
  return f;
}

// A case's row: each role's figures, and the fast reference against the anchor (the vendor's time where there
// is one, else the measured peak) and the baseline. Null where the fast reference has no time on it.
json case_row(const Case& c, const std::map<std::string, Report>& reports) {
  json row = {{"case", c.name}, {"sizes", c.size_string()}};
  for (const auto& [role, r] : reports)
    for (const BenchResult& br : r.bench)
      if (br.name == c.name && br.verdict == Verdict::AC) row[role] = role_figures(br);
  if (!row.contains("fast")) return nullptr;
  const double fast = row["fast"]["median_s"];
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
  return row;
}

// One problem timed: its solutions, the score's scale cached for the judge (timed in this run), its cases' rows
// and targets.
json bench_problem(const Problem& p, const Paths& paths, const GradeOptions& base, BenchRun& run) {
  json prob = {{"problem", p.info().slug}, {"kind", kind_name(p.info().kind)}, {"solutions", json::object()}};
  std::map<std::string, Report> reports = time_roles(p, paths, base, prob, run);
  if (reports.count("baseline") && reports.count("fast") && reports["baseline"].verdict == Verdict::AC &&
      reports["fast"].verdict == Verdict::AC)
    save_scale(p, paths, reports["fast"].machine, reports["baseline"], reports["fast"]);
  prob["cases"] = json::array();
  for (const Case& c : p.benchmarks())
    if (json row = case_row(c, reports); !row.is_null()) prob["cases"].push_back(std::move(row));
  for (const BenchTarget& t : p.info().bench_targets) mark_target(t, reports, prob["cases"]);
  return prob;
}

// The Markdown file's title and what its columns mean.
std::string markdown_intro(const std::string& machine_name, const std::string& when, const json& machine,
                           const std::string& gpu_name) {
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
  return md;
}

// A row's cells as the table shows them, in its columns' order.
struct TableCells {
  std::string problem, name, base, fast, vendor, dev, rate, peak, dev_peak, anchor, target;
};

TableCells table_cells(const json& prob, const json& row) {
  const json none;
  const json& f = row["fast"];
  TableCells t;
  t.problem = prob["problem"].get<std::string>();
  t.name = row["case"].get<std::string>();
  t.rate = num(f["rate"], "%.1f") + " " + f.value("unit", "");
  t.anchor = "-";
  if (row.contains("fast_vs_anchor")) {
    t.anchor = num(row["fast_vs_anchor"], "%.2f");
    if (row.contains("fast_vs_anchor_on_device")) t.anchor += " / " + num(row["fast_vs_anchor_on_device"], "%.2f");
    t.anchor += " (" + row.value("anchor", "") + ")";
  }
  t.base = ms(row.contains("baseline") ? row["baseline"]["median_s"] : none);
  t.fast = ms(f["median_s"]);
  t.vendor = ms(row.contains("vendor") ? row["vendor"]["median_s"] : none);
  t.dev = ms(f.contains("device_median_s") ? f["device_median_s"] : none);
  t.peak = num(f["percent_of_peak"], "%.0f");
  t.dev_peak = num(f.contains("device_percent_of_peak") ? f["device_percent_of_peak"] : none, "%.0f");
  t.target = target_cell(row);
  return t;
}

constexpr const char* kTableRow = "%-18s %-20s %10s %10s %10s %10s %12s %7s %7s %18s  %s\n";

void print_table_row(const TableCells& t) {
  std::printf(kTableRow, t.problem.c_str(), t.name.c_str(), t.base.c_str(), t.fast.c_str(), t.vendor.c_str(),
              t.dev.c_str(), t.rate.c_str(), t.peak.c_str(), t.dev_peak.c_str(), t.anchor.c_str(), t.target.c_str());
}

std::string markdown_row(const TableCells& t) {
  return "| " + t.problem + " | " + t.name + " | " + t.base + " | " + t.fast + " | " + t.vendor + " | " + t.dev +
         " | " + t.rate + " | " + t.peak + " | " + t.dev_peak + " | " + t.anchor + " | " + t.target + " |\n";
}

struct TargetCount {
  int met = 0, missed = 0, unmeasured = 0;
  void add(const json& row) {
    if (row.contains("target"))
      ++(row["target"]["met"].is_null() ? unmeasured : row["target"]["met"].get<bool>() ? met : missed);
  }
  std::string line() const {
    return "targets: " + std::to_string(met) + " met, " + std::to_string(missed) + " missed" +
           (unmeasured ? ", " + std::to_string(unmeasured) + " not measured" : "");
  }
};

// The table, one row per case, printed and in Markdown; the targets met and missed recorded in the results.
std::string table(BenchRun& run, const std::string& machine_name, const std::string& when) {
  std::string md = markdown_intro(machine_name, when, run.machine, run.gpu_name);
  std::printf("\n%-18s %-20s %10s %10s %10s %10s %12s %7s %7s %18s  %s\n", "problem", "case", "base ms", "fast ms",
              "vendor ms", "fast dev", "rate", "% peak", "% dev", "vs anchor", "target");
  TargetCount targets;
  for (const json& prob : run.results["problems"])
    for (const json& row : prob["cases"]) {
      const TableCells cells = table_cells(prob, row);
      targets.add(row);
      print_table_row(cells);
      md += markdown_row(cells);
    }
  std::printf("\n%s\n", targets.line().c_str());
  md += "\n" + targets.line() + ".\n";
  run.results["targets"] = {{"met", targets.met}, {"missed", targets.missed}, {"not_measured", targets.unmeasured}};
  if (run.machine.contains("peaks")) md += "\nPeaks measured on this machine: " + run.machine["peaks"].dump() + "\n";
  if (run.machine.contains("cpu_peaks"))
    md += "\nCPU peaks measured on this machine: " + run.machine["cpu_peaks"].dump() + "\n";
  return md;
}

void write_results(const BenchOptions& b, const std::string& machine_name, const json& results, const std::string& md) {
  std::error_code ec;
  fs::create_directories(b.out, ec);
  const fs::path base_name = fs::path(b.out) / machine_name;
  std::ofstream(base_name.string() + ".json") << results.dump(2) << "\n";
  std::ofstream(base_name.string() + ".md") << md;
  std::printf("\nwritten: %s.json and %s.md\n", base_name.c_str(), base_name.c_str());
}

bool chosen(const BenchOptions& b, const std::string& slug) {
  return b.slugs.empty() || std::find(b.slugs.begin(), b.slugs.end(), slug) != b.slugs.end();
}

}  // namespace

int run_bench_table(const Paths& paths, const GradeOptions& base, const BenchOptions& b) {
  BenchRun run;
  const std::string when = utc_now_iso();
  run.results["date"] = when;
  const json cpu_peaks = measure_peaks(paths, base);
  for (const Problem* p : Registry::all()) {
    const std::string slug = p->info().slug;
    if (!chosen(b, slug)) continue;
    if (p->info().kind == Kind::GPU && !gpu_runs_here(paths, base.device)) {
      std::printf("%-18s skipped: no CUDA device here\n", slug.c_str());
      continue;
    }
    run.results["problems"].push_back(bench_problem(*p, paths, base, run));
  }
  if (!cpu_peaks.is_null()) run.machine["cpu_peaks"] = cpu_peaks;
  run.results["machine"] = run.machine;
  const std::string machine_name =
      !b.name.empty() ? b.name : slugify(!run.gpu_name.empty() ? run.gpu_name : run.machine.value("cpu_model", ""));
  const std::string md = table(run, machine_name, when);
  write_results(b, machine_name, run.results, md);
  if (run.failures > 0) std::printf("%d reference or anchor solution(s) not AC: see above\n", run.failures);
  return run.failures > 0 ? 1 : 0;
}

}  // namespace hpcjudge
