#include "server/report_html.h"

#include <cstdio>

#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge::server {
namespace {

using nlohmann::json;
using tolerant::field;
using tolerant::num;
using tolerant::str;

std::string esc(std::string_view s) { return markup_escape(s); }

std::string fixed(std::optional<double> v, const char* format = "%.1f") {
  if (!v) return "—";
  char b[64];
  std::snprintf(b, sizeof b, format, *v);
  return b;
}

std::string seconds(std::optional<double> s) { return s ? esc(format_seconds(*s, TimeStyle::Short)) : "—"; }

std::string cell(const std::string& html) { return "<td>" + html + "</td>"; }
std::string text_cell(const json& j, const char* key) { return cell(esc(str(j, key))); }

std::string header_row(std::initializer_list<const char*> names) {
  std::string h = "<tr>";
  for (const char* n : names) h += std::string("<th>") + n + "</th>";
  return h + "</tr>\n";
}

std::string summary(const json& r) {
  const json& score = field(r, "score");
  std::string h = "<section class=\"summary\"><h2>" + verdict_badge(str(r, "verdict")) + " " +
                  esc(str(r, "problem")) + "</h2>\n";
  if (!str(r, "message").empty()) h += "<p class=\"cause\">" + esc(str(r, "message")) + "</p>\n";
  h += "<p>score <strong class=\"score\">" +
       score_text(num(score, "total"), num(score, "plus_minus"), num(score, "max")) + "</strong> (correctness " +
       fixed(num(score, "correctness"), "%.0f") + " + performance " + fixed(num(score, "performance")) +
       (num(score, "bonus").value_or(0) > 0 ? ", " + fixed(num(score, "bonus")) + " of it a bonus" : "") + ")</p>\n";
  if (!str(score, "note").empty()) h += "<p class=\"note\">" + esc(str(score, "note")) + "</p>\n";
  if (!str(score, "noise").empty()) h += "<p class=\"note\">noise: " + esc(str(score, "noise")) + "</p>\n";
  if (field(r, "emulated").is_boolean() && field(r, "emulated").get<bool>())
    h += "<p class=\"note\">" + esc(str(field(r, "emulation"), "what")) + "</p>\n";
  // The seed (public, or "secret" in the final round); not the file, which is the server's own copy of it.
  if (!str(r, "seed").empty()) h += "<p class=\"meta\">seed " + esc(str(r, "seed")) + "</p>\n";
  return h + "</section>\n";
}

std::string compile_section(const json& r) {
  const json& c = field(r, "compile");
  std::string h = "<section><h3>Compile</h3><p>" + std::string(str(c, "ok") == "true" ? "compiled" : "not compiled") +
                  " in " + seconds(num(c, "seconds")) + (str(c, "cached") == "true" ? " (cached)" : "") +
                  (str(c, "arch").empty() ? "" : " for " + esc(str(c, "arch"))) + "</p>\n";
  if (!str(c, "log").empty()) h += "<pre class=\"log\">" + esc(str(c, "log")) + "</pre>\n";
  const json& kernels = field(r, "kernels");
  if (kernels.is_array() && !kernels.empty()) {
    h += "<h3>Kernel resources</h3><table>" +
         header_row({"kernel", "registers", "shared bytes", "stack bytes", "spill stores", "spill loads", "barriers"});
    for (const json& k : kernels)
      h += "<tr>" + text_cell(k, "name") + text_cell(k, "registers") + text_cell(k, "shared_bytes") +
           text_cell(k, "stack_bytes") + text_cell(k, "spill_store_bytes") + text_cell(k, "spill_load_bytes") +
           text_cell(k, "barriers") + "</tr>\n";
    h += "</table>\n";
  }
  return h + "</section>\n";
}

std::string tests_section(const json& r) {
  const json& tests = field(r, "tests");
  if (!tests.is_array() || tests.empty()) return "";
  std::string h = "<section><h3>Tests</h3><table class=\"tests\">" +
                  header_row({"test", "sizes", "verdict", "time", "max abs err", "max rel err"});
  std::string failures;
  for (const json& t : tests) {
    h += "<tr>" + text_cell(t, "name") + text_cell(t, "sizes") + cell(verdict_badge(str(t, "verdict"))) +
         cell(seconds(num(t, "seconds"))) + cell(fixed(num(t, "max_abs_err"), "%.3g")) +
         cell(fixed(num(t, "max_rel_err"), "%.3g")) + "</tr>\n";
    std::string why = str(t, "summary").empty() ? str(t, "message") : str(t, "summary");
    if (str(t, "verdict") != "AC" && !why.empty())
      failures += "<h4>" + esc(str(t, "name")) + "</h4><pre class=\"mismatch\">" + esc(why) + "</pre>\n";
  }
  return h + "</table>\n" + failures + "</section>\n";
}

// The ratio of the submission's median to a reference's median ("0.84×"), or "—".
std::string ratio(std::optional<double> mine, std::optional<double> theirs) {
  if (!mine || !theirs || *theirs <= 0) return "—";
  return fixed(*mine / *theirs, "%.2f×");
}

// The submission's time over the fast reference's: the paired ratio with its interval where the reference was
// timed beside each run (as the score takes it), else the ratio of the medians.
std::string fast_ratio(const json& b) {
  const json& pairs = field(b, "side_by_side");
  if (pairs.is_array())
    for (const json& q : pairs) {
      const json& ci = field(q, "ratio_interval");
      if (str(q, "role") != "fast" || !num(q, "median_ratio")) continue;
      std::string h = fixed(num(q, "median_ratio"), "%.3f×");
      if (ci.is_array() && ci.size() == 2 && ci[0].is_number() && ci[1].is_number())
        h += " [" + fixed(ci[0].get<double>(), "%.3f") + ", " + fixed(ci[1].get<double>(), "%.3f") + "]";
      return h;
    }
  return ratio(num(b, "median_s"), num(b, "fast_median_s"));
}

std::string bench_row(const json& b) {
  const json& ci = field(b, "median_interval_s");
  std::string interval = ci.is_array() && ci.size() == 2 && ci[0].is_number() && ci[1].is_number()
                             ? seconds(ci[0].get<double>()) + " – " + seconds(ci[1].get<double>())
                             : "—";
  std::optional<double> median = num(b, "median_s"), share = num(b, "share");
  std::string rate = num(b, "gflops").value_or(0) > 0 ? fixed(num(b, "gflops"), "%.1f GFLOP/s")
                                                      : fixed(num(b, "gbps"), "%.1f GB/s");
  return "<tr>" + text_cell(b, "name") + text_cell(b, "sizes") + cell(verdict_badge(str(b, "verdict"))) +
         text_cell(b, "runs") + cell(seconds(median)) + cell(interval) + cell(seconds(num(b, "baseline_median_s"))) +
         cell(seconds(num(b, "fast_median_s"))) + cell(ratio(median, num(b, "baseline_median_s"))) +
         cell(fast_ratio(b)) + cell(share ? fixed(*share * 100, "%.0f%%") : "—") +
         cell(esc(rate)) + cell(fixed(num(b, "percent_of_peak"), "%.0f%%")) + text_cell(b, "stop") + "</tr>\n";
}

std::string bench_section(const json& r) {
  const json& bench = field(r, "bench");
  if (!bench.is_array() || bench.empty()) return "";
  std::string h = "<section><h3>Performance</h3><p class=\"meta\">caches flushed before each run; fresh inputs for "
                  "every run; ratios are your median over the reference's</p><table class=\"bench\">" +
                  header_row({"case", "sizes", "verdict", "runs", "median", "median interval", "baseline", "fast",
                              "÷ baseline", "÷ fast", "share", "rate", "of peak", "stopped"});
  for (const json& b : bench) h += bench_row(b);
  return h + "</table>\n</section>\n";
}

std::string machine_section(const json& r) {
  const json& m = field(r, "machine");
  std::string h = "<section><h3>Machine</h3><table>";
  auto row = [&](const char* name, const std::string& value) {
    if (!value.empty()) h += std::string("<tr><th>") + name + "</th><td>" + esc(value) + "</td></tr>\n";
  };
  row("host", str(m, "hostname"));
  row("CPU", str(m, "cpu_model") + (str(m, "cores").empty() ? "" : ", " + str(m, "cores") + " cores"));
  row("GPU", str(field(m, "gpu"), "name"));
  row("compiler", str(m, "compiler"));
  row("OS", str(m, "os"));
  row("graded at", str(r, "graded_at"));
  const json& server = field(r, "server");
  std::string cores = field(server, "cores").is_array() ? field(server, "cores").dump() : str(server, "cores");
  row("graded by", str(server, "worker") + (str(server, "device").empty() ? "" : ", device " + str(server, "device")) +
                       (cores.empty() ? "" : ", cores " + cores));
  if (field(r, "isolation").is_string()) row("isolation", str(r, "isolation"));
  return h + "</table></section>\n";
}

std::string output_section(const json& r) {
  const json& o = field(r, "output");
  if (str(o, "text").empty()) return "";
  return "<section><h3>Your program's output</h3><pre class=\"output\">" + esc(str(o, "text")) + "</pre>" +
         (str(o, "truncated") == "true" ? "<p class=\"note\">cut at the first 64 KiB</p>" : "") + "</section>\n";
}

}  // namespace

std::string verdict_badge(const std::string& verdict) {
  std::string cls = verdict == "AC" ? "ok" : verdict == "CE" || verdict == "SKIP" ? "grey"
                                         : verdict == "JE" || verdict.empty() ? "warn"
                                                                              : "bad";
  return "<span class=\"verdict " + cls + "\">" + (verdict.empty() ? std::string("—") : esc(verdict)) + "</span>";
}

std::string score_text(std::optional<double> score, std::optional<double> plus_minus, std::optional<double> max) {
  if (!score) return "—";
  return fixed(score) + (plus_minus ? " ± " + fixed(plus_minus) : "") + (max ? " / " + fixed(max, "%.0f") : "");
}

std::string report_html(const nlohmann::json& report) {
  return summary(report) + tests_section(report) + bench_section(report) + compile_section(report) +
         output_section(report) + machine_section(report);
}

}  // namespace hpcjudge::server
