#include "judge/classroom/leaderboard.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <map>
#include <set>

#include "harness/problem.h"
#include "judge/classroom/leaderboard_html.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

std::string machine_line(const json& m) {
  std::string s = m.value("cpu_model", "?") + ", " + std::to_string(m.value("cores", 0)) + " cores";
  if (m.contains("gpu") && m["gpu"].is_object()) s += ", " + m["gpu"].value("name", "GPU");
  return s + "; " + m.value("compiler", "");
}

json result_entry(const json& report) {
  json bench = json::array();
  for (const auto& b : report.value("bench", json::array()))
    bench.push_back({{"name", b.value("name", "")},
                     {"sizes", b.value("sizes", "")},
                     {"median_s", b.value("median_s", 0.0)},
                     {"baseline_s", b.value("baseline_median_s", json(nullptr))},
                     {"fast_s", b.value("fast_median_s", json(nullptr))}});
  const json score = report.value("score", json::object());
  return {{"verdict", report.value("verdict", "FAIL")},
          {"score", score.value("total", 0.0)},
          {"max", score.value("max", 0.0)},
          {"message", report.value("message", "")},
          {"graded_at", report.value("graded_at", "")},
          {"machine", machine_line(report.value("machine", json::object()))},
          {"bench", bench}};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string md_cell(std::string s) {
  for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

void write_file(const fs::path& p, const std::string& text) {
  const fs::path part = p.string() + ".part";
  {
    std::ofstream f(part, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + p.string());
  }
  fs::rename(part, p);
}

}  // namespace

json leaderboard_model(const fs::path& results) {
  std::map<std::string, json> reports_by_participant;  // name -> {slug: report}
  std::set<std::string> slugs, machines;
  for (const auto& dir : fs::directory_iterator(results)) {
    if (!dir.is_directory() || dir.path().filename().string().front() == '.') continue;
    if (dir.path().filename() == "slurm") continue;
    json& mine = reports_by_participant[dir.path().filename().string()];
    mine = json::object();
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".json") continue;
      std::ifstream in(f.path());
      const json report = json::parse(in, nullptr, false);
      if (report.is_discarded() || !report.contains("problem")) continue;
      const std::string slug = report["problem"];
      mine[slug] = result_entry(report);
      slugs.insert(slug);
      machines.insert(mine[slug]["machine"].get<std::string>());
    }
  }
  json problems = json::array();
  double max_total = 0;
  for (const auto& slug : slugs) {
    const Problem* p = Registry::find(slug);
    const double max = p ? p->info().points.total() : 0;
    max_total += max;
    problems.push_back({{"slug", slug},
                        {"title", p ? p->info().title : slug},
                        {"kind", p ? kind_name(p->info().kind) : "?"},
                        {"max", max}});
  }
  std::vector<json> rows;
  for (auto& [name, results_of] : reports_by_participant) {
    double total = 0;
    for (const auto& [slug, r] : results_of.items()) total += r["score"].get<double>();
    rows.push_back({{"name", name}, {"total", total}, {"max", max_total}, {"results", results_of}});
  }
  std::sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    if (a["total"] != b["total"]) return a["total"].get<double>() > b["total"].get<double>();
    return a["name"].get<std::string>() < b["name"].get<std::string>();
  });
  for (size_t i = 0; i < rows.size(); ++i)  // competition ranking: 1, 2, 2, 4
    rows[i]["rank"] = i > 0 && rows[i]["total"] == rows[i - 1]["total"] ? rows[i - 1]["rank"].get<int>()
                                                                         : static_cast<int>(i + 1);
  return {{"title", "hpcjudge leaderboard"},
          {"generated_at", utc_now()},
          {"problems", problems},
          {"machines", json(std::vector<std::string>(machines.begin(), machines.end()))},
          {"participants", rows}};
}

std::string leaderboard_csv(const json& model) {
  std::string s = "rank,participant,total,max";
  // Appended piece by piece: `"," + std::string` sets off g++ 12's false -Wrestrict (GCC bug 105329).
  for (const auto& p : model["problems"]) {
    s += ',';
    s += csv_field(p["slug"].get<std::string>() + " verdict") + "," + csv_field(p["slug"].get<std::string>() + " score");
  }
  s += ",graded_at,machine\n";
  for (const auto& row : model["participants"]) {
    s += std::to_string(row["rank"].get<int>()) + "," + csv_field(row["name"]) + "," + fixed1(row["total"]) + "," +
         fixed1(row["max"]);
    std::string when, machine;
    for (const auto& p : model["problems"]) {
      const std::string slug = p["slug"];
      if (!row["results"].contains(slug)) {
        s += ",,";
        continue;
      }
      const json& r = row["results"][slug];
      s += ',';
      s += r["verdict"].get<std::string>() + "," + fixed1(r["score"]);
      when = std::max(when, r["graded_at"].get<std::string>());
      machine = r["machine"];
    }
    s += ',';
    s += csv_field(when) + "," + csv_field(machine) + "\n";
  }
  return s;
}

std::string leaderboard_markdown(const json& model) {
  std::string s = "# " + model["title"].get<std::string>() + "\n\nGenerated " + model["generated_at"].get<std::string>() +
                  ".\n\n| rank | participant | total |";
  std::string rule = "| ---: | --- | ---: |";
  for (const auto& p : model["problems"]) {
    s += ' ';
    s += md_cell(p["slug"]) + " |";
    rule += " --- |";
  }
  s += "\n" + rule + "\n";
  for (const auto& row : model["participants"]) {
    s += "| " + std::to_string(row["rank"].get<int>()) + " | " + md_cell(row["name"]) + " | " + fixed1(row["total"]) +
         " / " + fixed1(row["max"]) + " |";
    for (const auto& p : model["problems"]) {
      const std::string slug = p["slug"];
      if (!row["results"].contains(slug)) {
        s += " — |";
        continue;
      }
      s += ' ';
      s += row["results"][slug]["verdict"].get<std::string>() + " " + fixed1(row["results"][slug]["score"]) + " |";
    }
    s += "\n";
  }
  s += "\nGraded on:\n\n";
  for (const auto& m : model["machines"]) s += "- " + md_cell(m) + "\n";
  return s;
}

json write_leaderboard(const fs::path& results) {
  const json model = leaderboard_model(results);
  write_file(results / "leaderboard.json", model.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  write_file(results / "leaderboard.csv", leaderboard_csv(model));
  write_file(results / "leaderboard.md", leaderboard_markdown(model));
  write_file(results / "leaderboard.html", leaderboard_html(model));
  return model;
}

}  // namespace hpcjudge
