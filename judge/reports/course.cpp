#include "judge/reports/course.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "judge/grading/grade.h"
#include "judge/reports/text.h"

namespace hpcjudge {

using nlohmann::json;

namespace {

std::string str(const json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

double num(const json& j, const char* key, double fallback = 0) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  return it != j.end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>() : fallback;
}

const json& arr(const json& j, const char* key) {
  static const json kEmpty = json::array();
  if (!j.is_object()) return kEmpty;
  const auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

// The report's entry of that name in tests[] or bench[], or null.
const json* find_named(const json& list, const std::string& name) {
  for (const json& e : list)
    if (str(e, "name") == name) return &e;
  return nullptr;
}

// What a problem runs: its functional tests (the last a second time with new inputs)
// and the performance cases a machine with this many cores runs.
struct Described {
  std::vector<std::string> tests, cases;
};
Described described(const Problem& p, const json& report) {
  Described d;
  const std::vector<Case> tests = p.tests();
  for (const Case& c : tests) d.tests.push_back(c.name);
  if (!tests.empty()) d.tests.push_back(tests.back().name + std::string(kNewInputs));
  const int cores = static_cast<int>(num(report.value("machine", json::object()), "cores", 1 << 20));
  for (const Case& c : p.benchmarks())
    if (c.min_cores <= std::max(cores, 1)) d.cases.push_back(c.name);
  // A name the report has that the description does not (another version of the problem) still counts.
  for (const json& t : arr(report, "tests"))
    if (std::find(d.tests.begin(), d.tests.end(), str(t, "name")) == d.tests.end()) d.tests.push_back(str(t, "name"));
  for (const json& b : arr(report, "bench"))
    if (std::find(d.cases.begin(), d.cases.end(), str(b, "name")) == d.cases.end()) d.cases.push_back(str(b, "name"));
  return d;
}

// Why a test or case of the report was not run: one line.
std::string not_run(const json& report, bool timing) {
  const std::string verdict = str(report, "verdict");
  const std::string why = one_line(str(report, "message"), 200);
  if (verdict == "SKIP") return "not run: this machine cannot run the problem (" + why + ")";
  if (verdict == "CE") return "not run: the file does not compile";
  if (timing && verdict == "AC") return "not timed: graded with --no-bench (correctness only)";
  if (timing) return "not timed: performance cases run only after AC on every test (the verdict is " + verdict + ")";
  return "not run: the grading stopped before it (" + verdict + (why.empty() ? "" : ": " + why) + ")";
}

std::string fixed(double v, const char* f = "%.1f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Every value a report's JSON may hold, cleaned for a JSON string (nlohmann replaces
// invalid UTF-8 only when dumping; a tool reading the file sees valid text either way).
std::string text(const std::string& s, size_t max = 64 * 1024) {
  return clean_utf8(s.size() > max ? s.substr(0, max) : s);
}

}  // namespace

namespace {

// The score's "± x" (the report's score.plus_minus: half its performance interval, in points), where measured.
std::optional<double> plus_minus(const json& score) {
  const auto it = score.find("plus_minus");
  if (it == score.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

json gradescope_results(const Problem& p, const json& report) {
  const Described d = described(p, report);
  const json score = report.value("score", json::object());
  const double correctness = num(score, "correctness"), performance = num(score, "performance");
  const auto& points = p.info().points;
  const std::string verdict = str(report, "verdict");
  json tests = json::array();
  const double test_max = d.tests.empty() ? 0 : points.correctness / static_cast<double>(d.tests.size());
  for (const std::string& name : d.tests) {
    const json* t = find_named(arr(report, "tests"), name);
    const std::string v = t ? str(*t, "verdict") : "";
    std::string out;
    if (!t) {
      out = not_run(report, false);
    } else {
      out = v;
      if (v != "AC") out += "\n" + (str(*t, "summary").empty() ? str(*t, "message") : str(*t, "summary"));
      if (!str(*t, "sizes").empty()) out += "\nsizes: " + str(*t, "sizes");
      if (v == "AC" || v == "WA") out += "\ntime: " + format_seconds(num(*t, "seconds"));
      if (v == "AC" && correctness <= 0)
        out += "\npassed, but the correctness points come only with AC on every test (the verdict is " + verdict + ")";
    }
    tests.push_back({{"name", text("test " + name)},
                     {"score", correctness > 0 ? test_max : 0.0},
                     {"max_score", test_max},
                     {"status", v == "AC" ? "passed" : "failed"},
                     {"output", text(out)},
                     {"output_format", "text"},
                     {"tags", json::array({"correctness"})}});
  }
  const double case_max = d.cases.empty() ? 0 : points.performance / static_cast<double>(d.cases.size());
  for (const std::string& name : d.cases) {
    const json* b = find_named(arr(report, "bench"), name);
    const std::string v = b ? str(*b, "verdict") : "";
    std::string out;
    if (!b) out = not_run(report, true);
    else {
      out = v;
      if (!str(*b, "sizes").empty()) out += "\nsizes: " + str(*b, "sizes");
      if (num(*b, "runs") > 0) {
        out += "\nmedian " + format_seconds(num(*b, "median_s")) + " over " + fixed(num(*b, "runs"), "%.0f") + " runs";
        if (b->contains("baseline_median_s") && (*b)["baseline_median_s"].is_number())
          out += "; baseline " + format_seconds(num(*b, "baseline_median_s"));
        if (b->contains("fast_median_s") && (*b)["fast_median_s"].is_number())
          out += ", fast reference " + format_seconds(num(*b, "fast_median_s"));
      }
      if (v != "AC") out += "\n" + str(*b, "message");
      if (!str(score, "note").empty()) out += "\n" + str(score, "note");
    }
    tests.push_back({{"name", text("performance " + name)},
                     {"score", d.cases.empty() ? 0.0 : performance / static_cast<double>(d.cases.size())},
                     {"max_score", case_max},
                     {"status", v == "AC" ? "passed" : "failed"},
                     {"output", text(out)},
                     {"output_format", "text"},
                     {"tags", json::array({"performance"})}});
  }
  const std::optional<double> pm = plus_minus(score);
  std::string summary = "hpcjudge " + p.info().slug + ": verdict " + verdict + ", score " +
                        fixed(num(score, "total")) + (pm ? " ± " + fixed(*pm) : "") + " / " +
                        fixed(points.total(), "%.0f") + " (correctness " + fixed(correctness, "%.0f") +
                        " + performance " + fixed(performance) + ")";
  if (!str(report, "message").empty()) summary += "\n" + str(report, "message");
  if (!str(score, "note").empty()) summary += "\n" + str(score, "note");
  if (verdict == "CE") summary += "\n\ncompile log:\n" + str(report.value("compile", json::object()), "log");
  return {{"score", correctness + performance},
          {"output", text(summary)},
          {"output_format", "text"},
          {"tests", tests},
          {"extra_data",
           {{"problem", p.info().slug},
            {"verdict", verdict},
            {"max", points.total()},
            {"plus_minus", pm ? json(*pm) : json(nullptr)},
            {"graded_from", report.value("graded_from", json::object())}}}};
}


namespace {

// Element content: like an attribute, but line breaks kept as they are (readable).
std::string xml_text(const std::string& s, size_t max = 64 * 1024) {
  const std::string escaped = markup_escape(s.size() > max ? s.substr(0, max) : s);
  std::string out;
  out.reserve(escaped.size());
  for (size_t at = 0; at < escaped.size();) {
    if (escaped.compare(at, 5, "&#10;") == 0) out.push_back('\n'), at += 5;
    else out.push_back(escaped[at++]);
  }
  return out;
}

std::string attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + markup_escape(value) + "\"";
}

std::string seconds_attr(double s) { return attr("time", fixed(std::max(0.0, s), "%.6f")); }

// One testcase: passed, or <failure>/<error>/<skipped> with the message.
std::string testcase(JUnitSuite& n, const std::string& classname, const std::string& name, double seconds,
                     const std::string& verdict, const std::string& message, const std::string& detail) {
  ++n.tests;
  n.time += seconds;
  std::string x = "    <testcase" + attr("classname", classname) + attr("name", name) + seconds_attr(seconds);
  if (verdict == "AC") return x + "/>\n";
  x += ">\n";
  if (verdict.empty() || verdict == "SKIP") {
    ++n.skipped;
    x += "      <skipped" + attr("message", message) + "/>\n";
  } else {
    const bool wrong = verdict == "WA";
    ++(wrong ? n.failures : n.errors);
    const char* tag = wrong ? "failure" : "error";
    x += std::string("      <") + tag + attr("type", verdict) + attr("message", one_line(message, 300)) + ">" +
         xml_text(detail.empty() ? message : detail) + "</" + tag + ">\n";
  }
  return x + "    </testcase>\n";
}

}  // namespace

JUnitSuite junit_testsuite(const Problem& p, const json& report) {
  const Described d = described(p, report);
  const std::string slug = p.info().slug, verdict = str(report, "verdict");
  const json compile = report.value("compile", json::object());
  const json score = report.value("score", json::object());
  JUnitSuite n;
  std::string cases;
  {
    const bool ok = compile.is_object() && compile.value("ok", false);
    std::string v = ok ? "AC" : verdict == "CE" ? "CE" : "SKIP";
    if (!ok && verdict != "CE" && verdict != "SKIP") v = verdict;  // the batch refused the file, or FAIL
    const std::string why = str(report, "message");
    cases += testcase(n, slug, "compile", num(compile, "seconds"), v, ok ? "" : why.empty() ? "not compiled" : why,
                      str(compile, "log"));
  }
  for (const std::string& name : d.tests) {
    const json* t = find_named(arr(report, "tests"), name);
    if (!t) {
      cases += testcase(n, slug + ".tests", name, 0, "", not_run(report, false), "");
      continue;
    }
    const std::string v = str(*t, "verdict");
    const std::string summary = str(*t, "summary");
    cases += testcase(n, slug + ".tests", name, num(*t, "seconds"), v,
                      summary.empty() ? str(*t, "message") : summary, str(*t, "message"));
  }
  for (const std::string& name : d.cases) {
    const json* b = find_named(arr(report, "bench"), name);
    if (!b) {
      cases += testcase(n, slug + ".performance", name, 0, "", not_run(report, true), "");
      continue;
    }
    const double total = num(*b, "mean_s") * num(*b, "runs");
    cases += testcase(n, slug + ".performance", name, total, str(*b, "verdict"), str(*b, "message"), "");
  }
  std::string x = "  <testsuite" + attr("name", slug) + attr("tests", std::to_string(n.tests)) +
                  attr("failures", std::to_string(n.failures)) + attr("errors", std::to_string(n.errors)) +
                  attr("skipped", std::to_string(n.skipped)) + seconds_attr(n.time);
  if (!str(report, "graded_at").empty()) x += attr("timestamp", str(report, "graded_at").substr(0, 19));
  x += ">\n    <properties>\n";
  const auto property = [&](const char* name, const std::string& value) {
    x += "      <property" + attr("name", name) + attr("value", value) + "/>\n";
  };
  property("verdict", verdict);
  property("message", one_line(str(report, "message"), 300));
  property("score", fixed(num(score, "total")));
  if (const std::optional<double> pm = plus_minus(score)) property("plus_minus", fixed(*pm));
  property("max", fixed(p.info().points.total(), "%.0f"));
  if (!str(report, "participant").empty()) property("participant", str(report, "participant"));
  const json from = report.value("graded_from", json::object());
  if (!str(from, "judge_version").empty()) property("judge_version", str(from, "judge_version"));
  if (!str(from, "problem_version").empty()) property("problem_version", str(from, "problem_version"));
  x += "    </properties>\n" + cases;
  const json output = report.value("output", json::object());
  if (!str(output, "text").empty()) x += "    <system-out>" + xml_text(str(output, "text")) + "</system-out>\n";
  n.xml = x + "  </testsuite>\n";
  return n;
}

std::string junit_document(const std::string& name, const std::vector<JUnitSuite>& suites) {
  JUnitSuite total;
  for (const JUnitSuite& s : suites) {
    total.tests += s.tests, total.failures += s.failures, total.errors += s.errors, total.skipped += s.skipped;
    total.time += s.time;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attr("name", name) +
                  attr("tests", std::to_string(total.tests)) + attr("failures", std::to_string(total.failures)) +
                  attr("errors", std::to_string(total.errors)) + attr("skipped", std::to_string(total.skipped)) +
                  seconds_attr(total.time) + ">\n";
  for (const JUnitSuite& s : suites) x += s.xml;
  return x + "</testsuites>\n";
}

}  // namespace hpcjudge
