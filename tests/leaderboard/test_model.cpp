// What the leaderboard shows of a results folder's reports, in every format (issue 57, "What the leaderboard
// hides"): each score's ± and a noisy mark, a judge error never ranked, an emulated grade marked, a participant
// without a submission unranked, one machine counted once, and each case's bar coloured by the score's own ratios.
// The reports are written here as a batch writes them; write_leaderboard is what `judge leaderboard RESULTS` runs.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "judge/classroom/batch.h"
#include "judge/classroom/leaderboard.h"
#include "judge/classroom/leaderboard_html.h"
#include "judge/timing/score.h"
#include "judge/reports/report.h"

using namespace hpcjudge;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/hpcjudge-lb-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The machine block of a report, as MachineInfo::to_json writes it.
json machine(const json& gpu = nullptr) {
  json m = {{"cpu_model", "AMD EPYC 7B13"}, {"cores", 2},           {"threads", 2},
            {"os", "Debian GNU/Linux 12"}, {"hostname", "vm-1"}, {"compiler", "g++ (Debian 12.2.0-14) 12.2.0"}};
  if (!gpu.is_null()) m["gpu"] = gpu;
  return m;
}

json report(const std::string& problem, const std::string& verdict, double total, double max = 100) {
  return {{"problem", problem}, {"verdict", verdict}, {"message", ""},  {"graded_at", "2026-11-30T06:01:02Z"},
          {"machine", machine()}, {"bench", json::array()}, {"score", {{"total", total}, {"max", max}, {"noise", ""}}}};
}

// A class graded on one VM without a GPU: a noisy grade, a judge error, an emulated GPU grade, an empty folder.
void write_class(const fs::path& results) {
  json noisy = report("softmax-cpu", "AC", 71.1);
  noisy["score"]["plus_minus"] = 12.4;
  noisy["score"]["noise"] = "load average 4.30 on 2 cores";
  write(results / "alice" / "softmax-cpu.json", noisy.dump());
  json quiet = report("matmul-cpu", "AC", 90.0);
  quiet["score"]["plus_minus"] = 0.8;
  write(results / "alice" / "matmul-cpu.json", quiet.dump());
  write(results / "dave" / "matmul-cpu.json", report("matmul-cpu", "WA", 0).dump());
  json je = report("softmax-cpu", "JE", 0);
  je["message"] = "the runner could not reach /root/class/carol/softmax-cpu.cpp (Permission denied)";
  write(results / "carol" / "softmax-cpu.json", je.dump());
  write(results / "carol" / "matmul-cpu.json", report("matmul-cpu", "AC", 95.0).dump());
  // The GPU problem's report on the same VM: the probe found no GPU, the code ran under emulation.
  json emulated = report("vector-add", "AC", 40.0);
  emulated["emulated"] = true;
  emulated["emulation"] = {{"what", "the submission's CUDA ran on the CPU"}, {"skipped_tests", json::array()}};
  emulated["machine"] = machine({{"error", "no CUDA device"}, {"emulated", "CPU emulation of an H100/H200-class GPU"}});
  write(results / "ivan" / "vector-add.json", emulated.dump());
  fs::create_directories(results / "grace");  // submitted nothing
}

const json& row_of(const json& model, const std::string& name) {
  for (const json& row : model["participants"])
    if (row["name"] == name) return row;
  FAIL("no row for " << name);
  static json none;
  return none;
}

// The CSV's ranking rows, each line as written.
std::vector<std::string> csv_rows(const std::string& csv) {
  std::vector<std::string> rows;
  size_t at = csv.find('\n') + 1;
  for (size_t end; (end = csv.find('\n', at)) != std::string::npos && end > at; at = end + 1)
    rows.push_back(csv.substr(at, end - at));
  return rows;
}

}  // namespace

TEST_CASE("leaderboard: each score's ± and the noisy mark in every format", "[leaderboard]") {
  TempDir tmp;
  write_class(tmp.path);
  const LeaderboardFiles lb = write_leaderboard(tmp.path);
  const json& alice = row_of(lb.model, "alice");
  CHECK(alice["results"]["softmax-cpu"]["plus_minus"] == 12.4);
  CHECK(alice["results"]["softmax-cpu"]["noisy"] == true);
  CHECK(alice["results"]["matmul-cpu"]["noisy"] == false);
  const std::string md = read(tmp.path / "leaderboard.md"), csv = read(tmp.path / "leaderboard.csv"),
                    html = read(tmp.path / "leaderboard.html"), js = read(tmp.path / "leaderboard.json");
  CHECK(md.find("AC 71.1 \xC2\xB1 12.4 (noisy)") != std::string::npos);
  CHECK(md.find("AC 90.0 \xC2\xB1 0.8 |") != std::string::npos);
  CHECK(md.find("alice, softmax-cpu: load average 4.30 on 2 cores") != std::string::npos);
  CHECK(csv.find("softmax-cpu \xC2\xB1,softmax-cpu marks") != std::string::npos);
  CHECK(csv.find(",AC,71.1,,12.4,noisy (load average 4.30 on 2 cores)") != std::string::npos);
  CHECK(html.find("71.1 \xC2\xB1 12.4 <span class=\"mark mark-noisy\" title=\"the machine was noisy: load average "
                  "4.30 on 2 cores") != std::string::npos);
  CHECK(js.find("\"plus_minus\": 12.4") != std::string::npos);
  CHECK(js.find("\"noise\": \"load average 4.30 on 2 cores\"") != std::string::npos);
}

TEST_CASE("leaderboard: a judge error is shown with its cause, never ranked, never 0 points", "[leaderboard]") {
  TempDir tmp;
  write_class(tmp.path);
  const LeaderboardFiles lb = write_leaderboard(tmp.path);
  const json& carol = row_of(lb.model, "carol");
  CHECK(carol["rank"].is_null());
  CHECK(carol["unranked"] == "judge error");
  // carol's 95 would rank her first: she is listed after every ranked participant instead.
  CHECK(lb.model["participants"][0]["name"] == "alice");
  const std::string md = read(tmp.path / "leaderboard.md"), csv = read(tmp.path / "leaderboard.csv"),
                    html = read(tmp.path / "leaderboard.html");
  CHECK(md.find("| judge error | carol |") != std::string::npos);
  CHECK(md.find("judge error — the runner could not reach /root/class/carol/softmax-cpu.cpp") != std::string::npos);
  CHECK(std::regex_search(csv, std::regex("\njudge error,carol,95\\.0,[0-9.]+,AC,95\\.0,,,,JE,,judge error: the "
                                          "runner could not reach")));
  CHECK(html.find("<td class=\"num rank unranked\"") != std::string::npos);
  CHECK(html.find("<span class=\"v v-je\">JE</span> judge error<small class=\"why\">the runner could not reach") !=
        std::string::npos);
  CHECK(html.find("JE</span> 0") == std::string::npos);
}

TEST_CASE("leaderboard: an emulated grade is marked in every format", "[leaderboard]") {
  TempDir tmp;
  write_class(tmp.path);
  const LeaderboardFiles lb = write_leaderboard(tmp.path);
  CHECK(row_of(lb.model, "ivan")["results"]["vector-add"]["emulated"] == true);
  CHECK(row_of(lb.model, "alice")["results"]["softmax-cpu"]["emulated"] == false);
  const std::string md = read(tmp.path / "leaderboard.md"), csv = read(tmp.path / "leaderboard.csv"),
                    html = read(tmp.path / "leaderboard.html"), js = read(tmp.path / "leaderboard.json");
  CHECK(md.find("AC 40.0 (emulated)") != std::string::npos);
  CHECK(csv.find(",AC,40.0,,,emulated (CPU emulation of the GPU: no timing)") != std::string::npos);
  CHECK(html.find("<span class=\"mark mark-emulated\"") != std::string::npos);
  CHECK(js.find("\"emulated\": true") != std::string::npos);
}

TEST_CASE("leaderboard: a participant without a submission is 'no submission', tied with no one", "[leaderboard]") {
  TempDir tmp;
  write_class(tmp.path);
  const LeaderboardFiles lb = write_leaderboard(tmp.path);
  const json& grace = row_of(lb.model, "grace");
  CHECK(grace["rank"].is_null());
  CHECK(grace["unranked"] == "no submission");
  CHECK(lb.model["participants"].back()["name"] == "grace");
  CHECK(row_of(lb.model, "dave")["rank"] == 3);  // alice 161.1, ivan 40, dave 0: no tie with grace's 0
  const std::vector<std::string> rows = csv_rows(read(tmp.path / "leaderboard.csv"));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].rfind("1,alice,", 0) == 0);
  CHECK(rows[2].rfind("3,dave,", 0) == 0);
  CHECK(rows[4].rfind("no submission,grace,", 0) == 0);
  CHECK(read(tmp.path / "leaderboard.md").find("| no submission | grace |") != std::string::npos);
  CHECK(read(tmp.path / "leaderboard.html").find("\">no submission</td>") != std::string::npos);
}

TEST_CASE("leaderboard: one machine is one machine, described once, with no GPU it did not have", "[leaderboard]") {
  TempDir tmp;
  write_class(tmp.path);
  const LeaderboardFiles lb = write_leaderboard(tmp.path);
  REQUIRE(lb.model["machines"].size() == 1);
  CHECK(lb.model["machines"][0] == "AMD EPYC 7B13, 2 cores; g++ (Debian 12.2.0-14) 12.2.0");
  CHECK(row_of(lb.model, "ivan")["results"]["vector-add"]["machine"] == lb.model["machines"][0]);
  const std::string html = read(tmp.path / "leaderboard.html");
  CHECK(html.find("Graded on: <span class=\"machine\">AMD EPYC 7B13, 2 cores;") != std::string::npos);
  CHECK(html.find("machines:") == std::string::npos);

  // A second host is a second machine; a GPU problem's report names the host's GPU, its CPU problems' do not.
  json other = report("softmax-cpu", "AC", 50);
  other["machine"] = machine({{"name", "NVIDIA H100 80GB HBM3"}, {"arch", "sm_90"}});
  other["machine"]["hostname"] = "gpu-node-2";
  write(tmp.path / "erin" / "softmax-cpu.json", other.dump());
  json cpu_side = report("matmul-cpu", "AC", 50);
  cpu_side["machine"]["hostname"] = "gpu-node-2";
  write(tmp.path / "erin" / "matmul-cpu.json", cpu_side.dump());
  const json model = leaderboard_model(tmp.path);
  REQUIRE(model["machines"].size() == 2);
  CHECK(model["machines"][0] == "AMD EPYC 7B13, 2 cores, NVIDIA H100 80GB HBM3; g++ (Debian 12.2.0-14) 12.2.0");
}

namespace {

// A performance case as a grade reports it (Report::to_json), and the model's row of it.
json modelled_case(const BenchResult& b) {
  Report r;
  r.problem = "softmax-cpu";
  r.verdict = Verdict::AC;
  r.bench = {b};
  TempDir tmp;
  write(tmp.path / "p" / "softmax-cpu.json", r.to_json().dump());
  return leaderboard_model(tmp.path)["participants"][0]["results"]["softmax-cpu"]["bench"][0];
}

BenchResult::Paired paired(const char* role, double ratio) {
  BenchResult::Paired p;
  p.role = role;
  p.median_log = std::log(ratio);
  p.ci = {p.median_log - 0.01, p.median_log + 0.01};
  p.pairs = 20;
  return p;
}

// A case as score_report leaves it: its references' times from the ratios where they were timed beside it, and its
// share of the points (performance_estimate's); without_share: a report of a judge that wrote no share.
BenchResult scored_case(double median, const Scale& scale, std::vector<BenchResult::Paired> pairs,
                        bool without_share = false) {
  BenchResult b;
  b.name = "n1M";
  b.stats.median = median;
  b.stats.median_ci = {0.99 * median, 1.01 * median};
  b.paired = std::move(pairs);
  b.baseline_s = scale.cases[0].baseline_s;
  b.fast_s = scale.cases[0].fast_s;
  if (auto* f = b.paired_with("fast")) b.fast_s = median / std::exp(f->median_log);
  if (auto* base = b.paired_with("baseline")) b.baseline_s = median / std::exp(base->median_log);
  if (!without_share) b.share = performance_estimate({b}, scale)->shares.at(0).second;
  return b;
}

std::string bar_colour(const json& bench_row) {
  json model = {{"problems", json::array({{{"slug", "softmax-cpu"}}})}};
  json p = {{"name", "p"}, {"rank", 1}};
  p["results"]["softmax-cpu"] = {{"verdict", "AC"}, {"score", 50}, {"bench", json::array({bench_row})}};
  model["participants"] = json::array({p});
  std::smatch m;
  const std::string html = leaderboard_html(model);
  REQUIRE(std::regex_search(html, m, std::regex("<rect class=\"(bar-[a-z]+)\"")));
  return m[1];
}

}  // namespace

TEST_CASE("leaderboard: a case's bar is coloured by the ratios the score uses, not by absolute time", "[leaderboard]") {
  // A narrow span: the baseline 1.2x the fast reference's time, so the score's slow end is 2x (kMinScaleSpan).
  const Scale narrow{{{"n1M", 0.0012, 0.0010}}, "", -1};
  SECTION("slower than the baseline, both timed beside: part of the points (blue), not orange") {
    const BenchResult b = scored_case(0.0015, narrow, {paired("fast", 1.5), paired("baseline", 1.25)});
    REQUIRE(b.stats.median > *b.baseline_s);  // the old colouring's "slower than the baseline"
    const json row = modelled_case(b);
    CHECK(row["share"].get<double>() == Catch::Approx(performance_estimate({b}, narrow)->value).epsilon(1e-9));
    CHECK(row["share"].get<double>() > 0);
    CHECK(bar_colour(row) == "bar-mid");
  }
  SECTION("faster than the cached baseline's time but slower than the score's slow end: none (orange)") {
    const Scale wide{{{"n1M", 0.0100, 0.0010}}, "", -1};
    // This run's fast reference beside it says 12x; the cached baseline (another run) is 10x.
    const BenchResult b = scored_case(0.009, wide, {paired("fast", 12.0)});
    REQUIRE(b.stats.median < *b.baseline_s);  // the old colouring's "between the two"
    const json row = modelled_case(b);
    CHECK(performance_estimate({b}, wide)->value == 0);
    CHECK(row["share"].get<double>() == 0);
    CHECK(bar_colour(row) == "bar-slow");
  }
  SECTION("at the fast reference's speed side by side: all the points (green)") {
    const BenchResult b = scored_case(0.0011, narrow, {paired("fast", 0.98), paired("baseline", 0.9)});
    const json row = modelled_case(b);
    CHECK(row["share"].get<double>() == Catch::Approx(performance_estimate({b}, narrow)->value).epsilon(1e-9));
    CHECK(bar_colour(row) == "bar-fast");
  }
  SECTION("only cached medians: the same formula on them") {
    const Scale wide{{{"n1M", 0.0100, 0.0010}}, "", -1};
    const BenchResult b = scored_case(0.0030, wide, {});
    const json row = modelled_case(b);
    CHECK(row["share"].get<double>() == Catch::Approx(performance_estimate({b}, wide)->value).epsilon(1e-9));
    CHECK(bar_colour(row) == "bar-mid");
  }
  SECTION("a report without its cases' shares: worked out from its ratios the score's way") {
    for (const auto& [median, pairs] : std::vector<std::pair<double, std::vector<BenchResult::Paired>>>{
             {0.0015, {paired("fast", 1.5), paired("baseline", 1.25)}},
             {0.0011, {paired("fast", 0.98), paired("baseline", 0.9)}},
             {0.0019, {}}}) {
      const BenchResult b = scored_case(median, narrow, pairs, true);
      const json row = modelled_case(b);
      CHECK(row["share"].get<double>() == Catch::Approx(performance_estimate({b}, narrow)->value).epsilon(1e-9));
    }
  }
}

TEST_CASE("batch: a misnamed file is asked whether it meant a problem's file", "[leaderboard][batch]") {
  TempDir tmp;
  const fs::path cls = tmp.path / "class";
  for (const char* f : {"softmax.cpp", "matmul_cpu.cpp", "Softmax-CPU.cpp", "vectoradd.cu", "notes.cpp"})
    write(cls / "p4" / f, "int x;\n");
  const ClassList c = scan_class(cls, tmp.path / "results");
  std::map<std::string, std::string> why;
  for (const NotGraded& n : c.not_graded) why[n.file] = n.reason;
  CHECK(why["softmax.cpp"] == "named after no problem; did you mean softmax-cpu.cpp?");
  CHECK(why["matmul_cpu.cpp"] == "named after no problem; did you mean matmul-cpu.cpp?");
  CHECK(why["Softmax-CPU.cpp"] == "named after no problem; did you mean softmax-cpu.cpp?");
  CHECK(why["vectoradd.cu"] == "named after no problem; did you mean vector-add.cu?");
  CHECK(why["notes.cpp"] == "named after no problem");
  // With the class's list, only its problems are offered.
  const ClassList listed = scan_class(cls, tmp.path / "results", {"softmax-gpu", "matmul-cpu"});
  for (const NotGraded& n : listed.not_graded)
    if (n.file == "softmax.cpp") CHECK(n.reason == "named after no problem; did you mean softmax-gpu.cu?");
}
