#include "server/exports.h"

#include <map>

#include "judge/classroom/leaderboard.h"
#include "judge/reports/course.h"
#include "judge/reports/report.h"
#include "judge/reports/tolerant_json.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace hpcjudge::server {

namespace {

// Every readable report of a registered problem: participant -> slug -> (problem, report), in order.
using Reports = std::map<std::string, std::map<std::string, std::pair<const Problem*, json>>>;

Reports read_reports(const fs::path& results, const std::string& only) {
  Reports out;
  std::error_code ec;
  for (const auto& dir : fs::directory_iterator(results, ec)) {
    if (!dir.is_directory() || dir.is_symlink()) continue;
    const std::string who = participant_of_folder(dir.path().filename().string());
    if (!only.empty() && who != only) continue;
    for (const auto& f : fs::directory_iterator(dir.path(), ec)) {
      if (f.path().extension() != ".json" || !f.is_regular_file() || f.is_symlink()) continue;
      const json report = tolerant::read_file(f.path(), 64 << 20);
      if (!readable_report(report)) continue;
      if (const Problem* p = Registry::find(report["problem"].get<std::string>()))
        out[who][p->info().slug] = {p, report};
    }
  }
  return out;
}

}  // namespace

std::string export_csv(const fs::path& results) { return leaderboard_csv(leaderboard_model(results)); }

json export_gradescope(const fs::path& results, const std::string& participant) {
  json all = json::object();
  for (const auto& [who, problems] : read_reports(results, participant)) {
    double score = 0;
    std::string output;
    json tests = json::array(), extra = json::object();
    for (const auto& [slug, entry] : problems) {
      try {
        json one = gradescope_results(*entry.first, entry.second);
        score += one["score"].get<double>();
        output += (output.empty() ? "" : "\n\n") + one["output"].get<std::string>();
        for (json& t : one["tests"]) {
          t["name"] = slug + ": " + t["name"].get<std::string>();
          tests.push_back(std::move(t));
        }
        extra[slug] = one["extra_data"];
      } catch (const json::exception&) {  // a report edited by hand past reading: left out, as the batch does
      }
    }
    all[who] = {{"score", score},
                {"output", output},
                {"output_format", "text"},
                {"tests", tests},
                {"extra_data", {{"problems", extra}}}};
  }
  return all;
}

std::string export_junit(const fs::path& results, const std::string& participant) {
  std::vector<JUnitSuite> suites;
  for (const auto& [who, problems] : read_reports(results, participant))
    for (const auto& [slug, entry] : problems) {
      try {
        suites.push_back(junit_testsuite(*entry.first, entry.second));
      } catch (const json::exception&) {
      }
    }
  const std::string name = participant.empty() ? results.filename().string() : participant;
  return junit_document("hpcjudge: " + name, suites);
}

}  // namespace hpcjudge::server
