#include "judge/classroom/leaderboard.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "harness/problem.h"
#include "judge/classroom/leaderboard_html.h"
#include "judge/reports/tolerant_json.h"
#include "judge/files.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using tolerant::field;
using tolerant::num;
using tolerant::str;

std::string machine_line(const json& m) {
  const std::string cpu = str(m, "cpu_model");
  if (cpu.empty()) return "";
  std::string s = cpu + ", " + std::to_string(static_cast<long long>(num(m, "cores").value_or(0))) + " cores";
  if (const json& gpu = field(m, "gpu"); gpu.is_object()) {
    const std::string name = str(gpu, "name");
    s += ", " + (name.empty() ? std::string("GPU") : name);
  }
  return s + "; " + str(m, "compiler");
}

json number_or_null(const json& o, const char* key) {
  const std::optional<double> v = num(o, key);
  return v ? json(*v) : json();
}

// A report's row in the leaderboard (readable_report(report)): every field read tolerantly, so none throws.
json result_entry(const json& report) {
  json bench = json::array();
  if (const json& b = field(report, "bench"); b.is_array())
    for (const json& c : b)
      bench.push_back({{"name", str(c, "name")},
                       {"sizes", str(c, "sizes")},
                       {"median_s", num(c, "median_s").value_or(0.0)},
                       {"baseline_s", number_or_null(c, "baseline_median_s")},
                       {"fast_s", number_or_null(c, "fast_median_s")}});
  const json& score = field(report, "score");
  const std::string message = str(report, "message");
  const std::string note = str(score, "note");
  return {{"verdict", str(report, "verdict")},
          {"score", num(score, "total").value_or(0.0)},
          {"max", num(score, "max").value_or(0.0)},
          {"message", message},
          {"reason", one_line(message.empty() ? note : message)},
          {"graded_at", str(report, "graded_at")},
          {"machine", machine_line(field(report, "machine"))},
          {"bench", bench}};
}

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

constexpr const char* kRenamed = " (participant)";

}  // namespace

std::string results_folder(const std::string& participant) {
  static const std::set<std::string> own = {"leaderboard.csv", "leaderboard.md", "leaderboard.json",
                                            "leaderboard.html", "slurm", kBatchFile};
  return own.count(participant) || participant.ends_with(kRenamed) ? participant + kRenamed : participant;
}

std::string csv_field(const std::string& raw) {
  const std::string s = terminal_text(raw);  // a file read with cat too: no control character, no invalid UTF-8
  std::string v;
  if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos) v.push_back('\'');
  v.append(s);
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : terminal_text(s)) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '\\': out += "\\\\"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\n': out += "<br>"; break;
      case '\r': break;
      default: out += c;
    }
  }
  return out;
}

json leaderboard_model(const fs::path& results) {
  // The batch's record: the problem list, what was not graded, the packs' checks.
  json batch = json::object();
  try {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(results / kBatchFile, ec)))
      batch = parse_untrusted_json(read_regular_file(results / kBatchFile, 16 << 20), 16 << 20);
  } catch (const FileRefused&) {
  }
  if (!batch.is_object()) batch = json::object();
  std::vector<std::string> listed;
  if (batch.contains("problems") && batch["problems"].is_array())
    for (const json& p : batch["problems"])
      if (p.is_string()) listed.push_back(p.get<std::string>());
  const json packs = batch.contains("packs") && batch["packs"].is_object() ? batch["packs"] : json::object();

  std::map<std::string, json> reports_by_participant;  // name -> {slug: report}
  std::set<std::string> slugs, machines;
  for (const auto& dir : fs::directory_iterator(results)) {
    if (!dir.is_directory() || dir.path().filename().string().front() == '.') continue;
    const std::string folder = dir.path().filename().string();
    if (folder == "slurm") continue;  // the judge's own; a participant of that name is in "slurm (participant)"
    const bool renamed = folder.ends_with(kRenamed);
    json& mine = reports_by_participant[renamed ? folder.substr(0, folder.size() - std::strlen(kRenamed)) : folder];
    mine = json::object();
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".json" || !f.is_regular_file() || f.is_symlink()) continue;
      const json report = tolerant::read_file(f.path(), 64 << 20);
      if (!readable_report(report)) {  // edited by hand, or not a report at all: the next batch grades it again
        std::fprintf(stderr, "warning: %s is not a report the judge can read; left out (judge batch grades it again)\n",
                     terminal_safe(f.path().string()).c_str());
        continue;
      }
      const std::string slug = report["problem"];
      if (!listed.empty() && std::find(listed.begin(), listed.end(), slug) == listed.end()) continue;
      mine[slug] = result_entry(report);
      slugs.insert(slug);
      if (const std::string m = mine[slug]["machine"]; !m.empty()) machines.insert(m);
    }
  }
  json problems = json::array();
  double max_total = 0;
  for (const auto& slug : listed.empty() ? std::vector<std::string>(slugs.begin(), slugs.end()) : listed) {
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
    const std::string note = packs.contains(name) && packs[name].is_string() ? packs[name].get<std::string>() : "";
    rows.push_back({{"name", name}, {"total", total}, {"max", max_total}, {"note", note}, {"results", results_of}});
  }
  std::sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    if (a["total"] != b["total"]) return a["total"].get<double>() > b["total"].get<double>();
    return a["name"].get<std::string>() < b["name"].get<std::string>();
  });
  for (size_t i = 0; i < rows.size(); ++i)  // competition ranking: 1, 2, 2, 4
    rows[i]["rank"] = i > 0 && rows[i]["total"] == rows[i - 1]["total"] ? rows[i - 1]["rank"].get<int>()
                                                                         : static_cast<int>(i + 1);
  json not_graded = json::array();
  if (batch.contains("not_graded") && batch["not_graded"].is_array())
    for (const json& n : batch["not_graded"]) {
      if (!n.is_object()) continue;
      const auto text = [&](const char* key) {
        return n.contains(key) && n[key].is_string() ? n[key].get<std::string>() : std::string();
      };
      not_graded.push_back({{"participant", text("participant")}, {"file", text("file")}, {"reason", text("reason")}});
    }
  return {{"title", "hpcjudge leaderboard"},
          {"generated_at", utc_now()},
          {"problems", problems},
          {"problem_list", listed.empty() ? "the problems anyone was graded on" : "the class's problem list"},
          {"machines", json(std::vector<std::string>(machines.begin(), machines.end()))},
          {"participants", rows},
          {"not_graded", not_graded}};
}

std::string leaderboard_csv(const json& model) {
  std::string s = "rank,participant,total,max";
  auto cell = [&s](const std::string& text) {  // the next cell of the row
    s.push_back(',');
    s.append(csv_field(text));
  };
  for (const auto& p : model["problems"]) {
    cell(p["slug"].get<std::string>() + " verdict");
    cell(p["slug"].get<std::string>() + " score");
    cell(p["slug"].get<std::string>() + " reason");
  }
  s += ",graded_at,machine,note\n";
  for (const auto& row : model["participants"]) {
    s += std::to_string(row["rank"].get<int>());
    cell(row["name"]);
    cell(fixed1(row["total"]));
    cell(fixed1(row["max"]));
    std::string when, machine;
    for (const auto& p : model["problems"]) {
      const std::string slug = p["slug"];
      if (!row["results"].contains(slug)) {
        s += ",,,";
        continue;
      }
      const json& r = row["results"][slug];
      cell(r["verdict"]);
      cell(fixed1(r["score"]));
      cell(r["reason"]);
      when = std::max(when, r["graded_at"].get<std::string>());
      if (!r["machine"].get<std::string>().empty()) machine = r["machine"];
    }
    cell(when);
    cell(machine);
    cell(row.value("note", ""));
    s += "\n";
  }
  // After a blank line, the files no one was graded on: a section of its own.
  s += "\nnot graded,participant,file,reason\n";
  for (const auto& n : model.value("not_graded", json::array())) {
    s += "not graded";
    cell(n["participant"]);
    cell(n["file"]);
    cell(n["reason"]);
    s += "\n";
  }
  return s;
}

std::string leaderboard_markdown(const json& model) {
  std::string s = "# " + model["title"].get<std::string>() + "\n\nGenerated " + model["generated_at"].get<std::string>() +
                  ".\n\n| rank | participant | total |";
  std::string rule = "| ---: | --- | ---: |";
  for (const auto& p : model["problems"]) {
    s.push_back(' ');
    s.append(md_cell(p["slug"]));
    s += " |";
    rule += " --- |";
  }
  s += " note |\n" + rule + " --- |\n";
  for (const auto& row : model["participants"]) {
    s += "| " + std::to_string(row["rank"].get<int>()) + " | ";
    s.append(md_cell(row["name"]));
    s += " | " + fixed1(row["total"]) + " / " + fixed1(row["max"]) + " |";
    for (const auto& p : model["problems"]) {
      const std::string slug = p["slug"];
      if (!row["results"].contains(slug)) {
        s += " — |";
        continue;
      }
      const json& r = row["results"][slug];
      s.push_back(' ');
      s.append(md_cell(r["verdict"].get<std::string>()));
      s.push_back(' ');
      s.append(fixed1(r["score"]));
      if (const std::string why = r.value("reason", ""); !why.empty()) s += " — " + md_cell(why);
      s += " |";
    }
    s.push_back(' ');  // appended apart: `" " + std::string` sets off g++ 12's false -Wrestrict
    s += md_cell(row.value("note", ""));
    s += " |\n";
  }
  s += "\nMaximum: " + md_cell(model.value("problem_list", "")) + ".\n";
  s += "\n## Not graded\n\n";
  if (model.value("not_graded", json::array()).empty()) s += "Nothing: every file was graded.\n";
  for (const auto& n : model.value("not_graded", json::array())) {
    const std::string who = n["participant"];
    s += "- " + (who.empty() ? std::string("(the class folder)") : md_cell(who)) + ": " + md_cell(n["file"]) + " — " +
         md_cell(n["reason"]) + "\n";
  }
  s += "\nGraded on:\n\n";
  for (const auto& m : model["machines"]) {
    s += "- ";
    s.append(md_cell(m));
    s.push_back('\n');
  }
  return s;
}

LeaderboardFiles write_leaderboard(const fs::path& results) {
  LeaderboardFiles out;
  out.model = leaderboard_model(results);
  const json& model = out.model;
  const auto write = [&](const char* name, const std::string& text) {
    write_file_atomically(results / name, text);
    out.files.push_back(results / name);
  };
  write("leaderboard.html", leaderboard_html(model));
  write("leaderboard.md", leaderboard_markdown(model));
  write("leaderboard.csv", leaderboard_csv(model));
  write("leaderboard.json", model.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  return out;
}

std::string LeaderboardFiles::summary() const {
  std::string s = "leaderboard of " + std::to_string(model["participants"].size()) + " participant(s): ";
  for (size_t i = 0; i < files.size(); ++i) s += (i ? ", " : "") + files[i].string();
  return s;
}

}  // namespace hpcjudge
