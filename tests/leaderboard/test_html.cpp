// The leaderboard page as text: self-contained, escaped, complete, and its
// embedded model parses back. (Its behaviour in a browser is
// tests/leaderboard/browser_test.sh.)
#include <catch2/catch_test_macros.hpp>
#include <regex>
#include <string>
#include <vector>

#include "judge/classroom/leaderboard_html.h"

using nlohmann::json;

namespace {

const std::string kEvil = "<script>alert(1)</script> & \"q\"";

json bench(const char* name, double median, json baseline, json fast) {
  return {{"name", name}, {"sizes", "N=1000000"}, {"median_s", median}, {"baseline_s", baseline}, {"fast_s", fast}};
}

json result(const char* verdict, double score, json bench_cases, const std::string& message = "") {
  return {{"verdict", verdict},
          {"score", score},
          {"max", 100},
          {"message", message},
          {"graded_at", "2026-11-30T06:01:02Z"},
          {"machine", "AMD EPYC, 2 cores; g++ 12.2.0"},
          {"bench", bench_cases}};
}

json sample_model() {
  json m;
  m["title"] = "hpcjudge leaderboard";
  m["generated_at"] = "2026-11-30T06:10:00Z";
  m["problems"] = json::array({
      {{"slug", "matmul-cpu"}, {"title", "Matrix multiplication (CPU, OpenMP, FP32)"}, {"kind", "CPU"}, {"max", 100}},
      {{"slug", "softmax-cpu"}, {"title", "Softmax (CPU, OpenMP)"}, {"kind", "CPU"}, {"max", 100}},
  });
  m["machines"] = json::array({"AMD EPYC, 2 cores; g++ 12.2.0"});
  json alice = {{"name", "alice"}, {"rank", 1}, {"total", 180.5}, {"max", 200}};
  alice["results"]["softmax-cpu"] =
      result("AC", 97.2, json::array({bench("n1M", 0.00041, 0.0127, 0.00053), bench("n16M", 0.0071, nullptr, nullptr)}));
  alice["results"]["matmul-cpu"] = result("AC", 83.3, json::array({bench("square", 0.052, 1.9, 0.031)}));
  json zoe = {{"name", "Zo\u00eb \u00c4mter"}, {"rank", 2}, {"total", 87.5}, {"max", 200}};
  zoe["results"]["softmax-cpu"] = result("AC", 87.5, json::array({bench("n1M", 0.0009, 0.0127, 0.00053)}));
  zoe["results"]["matmul-cpu"] =
      result("WA", 0, json::array(), "test 2x2x2: 4 of 4 elements of C wrong: C[0] expected 1.5, got nan");
  json li = {{"name", "\u674e\u96f7"}, {"rank", 3}, {"total", 0}, {"max", 200}};
  li["results"]["softmax-cpu"] = result("SKIP", 0, json::array(), "no CUDA device");
  json evil = {{"name", kEvil}, {"rank", 4}, {"total", 0}, {"max", 200}};
  evil["results"]["matmul-cpu"] = result("CE", 0, json::array(), "error: expected ';' </script><b>x</b> <!-- <script>");
  json bob = {{"name", "bob"}, {"rank", 5}, {"total", 0}, {"max", 200}, {"results", json::object()}};
  m["participants"] = json::array({alice, zoe, li, evil, bob});
  return m;
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&') o += "&amp;";
    else if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '"') o += "&quot;";
    else if (c == '\'') o += "&#39;";
    else o += c;
  }
  return o;
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

const std::string kModelOpen = "<script type=\"application/json\" id=\"model\">";

std::string embedded_model(const std::string& page) {
  const size_t open = page.find(kModelOpen);
  REQUIRE(open != std::string::npos);
  const size_t begin = open + kModelOpen.size();
  const size_t end = page.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return page.substr(begin, end - begin);
}

// The participant names of the table's rows, in order, as written in the page.
std::vector<std::string> row_names(const std::string& page) {
  std::vector<std::string> names;
  const std::string open = "<span class=\"lb-name\">";
  for (size_t at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
    const size_t begin = at + open.size();
    names.push_back(page.substr(begin, page.find("</span>", begin) - begin));
  }
  return names;
}

}  // namespace

TEST_CASE("leaderboard page: a complete, self-contained HTML5 document") {
  const std::string page = hpcjudge::leaderboard_html(sample_model());
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("<meta charset=\"utf-8\">") != std::string::npos);
  CHECK(page.find("</html>") != std::string::npos);
  CHECK(page.find("<title>hpcjudge leaderboard</title>") != std::string::npos);
  CHECK(page.find("2026-11-30T06:10:00Z") != std::string::npos);
  CHECK(page.find("AMD EPYC, 2 cores; g++ 12.2.0") != std::string::npos);

  // Nothing fetched from anywhere: no remote src=/href=, no CSS url() or @import.
  const std::regex remote(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase);
  CHECK_FALSE(std::regex_search(page, remote));
  CHECK(page.find("url(") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  // The error counter is the first script in <head>.
  const size_t first_script = page.find("<script");
  CHECK(first_script < page.find("</head>"));
  CHECK(page.find("console.error", first_script) < page.find("</script>", first_script));
}

TEST_CASE("leaderboard page: names and messages are escaped") {
  const std::string page = hpcjudge::leaderboard_html(sample_model());
  CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;") != std::string::npos);
  CHECK(page.find("<script>alert") == std::string::npos);
  CHECK(page.find("<b>x</b>") == std::string::npos);
  CHECK(page.find("<!-- <script>") == std::string::npos);
  // Every "</script>" closes one of the page's own scripts.
  CHECK(count(page, "</script>") == count(page, "<script"));
}

TEST_CASE("leaderboard page: every participant, in the model's order, every problem's section") {
  const json model = sample_model();
  const std::string page = hpcjudge::leaderboard_html(model);
  std::vector<std::string> expected;
  for (const json& p : model["participants"]) expected.push_back(html_escape(p["name"].get<std::string>()));
  CHECK(row_names(page) == expected);
  CHECK(page.find("Zo\u00eb \u00c4mter") != std::string::npos);  // UTF-8 as is, not mangled
  CHECK(page.find("\u674e\u96f7") != std::string::npos);

  for (const json& p : model["problems"]) {
    const std::string id = "id=\"problem-" + p["slug"].get<std::string>() + "\"";
    CHECK(count(page, id) == 1);
    CHECK(page.find("data-col=\"" + p["slug"].get<std::string>() + "\"") != std::string::npos);
  }
  // Verdicts with their colour class and score; a missing result is a dash.
  CHECK(page.find("<span class=\"v v-ac\">AC</span> 97.2") != std::string::npos);
  CHECK(page.find("<span class=\"v v-bad\">WA</span> 0") != std::string::npos);
  CHECK(page.find("<span class=\"v v-skip\">SKIP</span>") != std::string::npos);
  CHECK(page.find("<span class=\"v v-bad\">CE</span>") != std::string::npos);
  CHECK(page.find("data-sort=\"\" title=\"not submitted\">\u2014</td>") != std::string::npos);
  // Timings become charts; no timing gives the reason.
  CHECK(count(page, "<svg class=\"chart\"") == 3);  // alice twice, Zoë once
  CHECK(page.find("<span class=\"v v-bad\">WA</span> \u2014 no timing") != std::string::npos);
  CHECK(page.find("baseline 12.7 ms") != std::string::npos);
  CHECK(page.find("fast 530 \u00b5s") != std::string::npos);
}

TEST_CASE("leaderboard page: the embedded model parses back unchanged") {
  const json model = sample_model();
  const std::string page = hpcjudge::leaderboard_html(model);
  const std::string text = embedded_model(page);
  CHECK(text.find('<') == std::string::npos);
  const json back = json::parse(text);
  CHECK(back == model);
  CHECK(back["participants"][3]["name"] == kEvil);
}

TEST_CASE("leaderboard page: an odd model renders without throwing") {
  CHECK_NOTHROW(hpcjudge::leaderboard_html(json::object()));
  CHECK_NOTHROW(hpcjudge::leaderboard_html(json(nullptr)));
  CHECK_NOTHROW(hpcjudge::leaderboard_html(json::array({1, 2})));
  json m = sample_model();
  m["participants"][0]["name"] = std::string("bad \xC3\x28 utf8 \xFF");  // invalid UTF-8
  m["participants"][0]["rank"] = nullptr;
  m["participants"][1]["results"] = "not an object";
  m["participants"][2]["results"]["softmax-cpu"]["bench"] = json::array({{{"median_s", "fast"}}, 7});
  m["problems"].push_back({{"slug", "vector-add"}});  // no title, kind or max; nobody submitted
  std::string page;
  REQUIRE_NOTHROW(page = hpcjudge::leaderboard_html(m));
  CHECK(page.find("bad \xEF\xBF\xBD( utf8 \xEF\xBF\xBD") != std::string::npos);
  CHECK(page.find("id=\"problem-vector-add\"") != std::string::npos);
  CHECK_NOTHROW(json::parse(embedded_model(page)));
  CHECK(row_names(hpcjudge::leaderboard_html(json::object())).empty());
}
