#include "judge/classroom/leaderboard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "sdk/problem.h"
#include "judge/classroom/leaderboard_html.h"
#include "judge/timing/score.h"
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

// A machine, described: its CPU, cores, GPU (a device the grade ran on, never an emulated one or the error of a
// probe that found none) and compiler. "" without a CPU model.
std::string machine_line(const json& m) {
  const std::string cpu = str(m, "cpu_model");
  if (cpu.empty()) return "";
  std::string s = cpu + ", " + std::to_string(static_cast<long long>(num(m, "cores").value_or(0))) + " cores";
  if (const std::string gpu = str(field(m, "gpu"), "name"); !gpu.empty()) s += ", " + gpu;
  return s + "; " + str(m, "compiler");
}

// Which machine graded a report: its host name and hardware, whatever the problem (a CPU problem's report names
// no GPU, a GPU problem's does). "" without a CPU model.
std::string machine_key(const json& m) {
  const std::string cpu = str(m, "cpu_model");
  if (cpu.empty()) return "";
  return str(m, "hostname") + "|" + cpu + "|" + str(m, "cores");
}

// The machines a leaderboard's reports were graded on, each described once: one entry per machine_key, its GPU
// and compilers from every report of it.
class Machines {
 public:
  void add(const json& m) {
    const std::string key = machine_key(m);
    if (key.empty()) return;
    Seen& seen = by_key_[key];
    seen.base = str(m, "cpu_model") + ", " + std::to_string(static_cast<long long>(num(m, "cores").value_or(0))) +
                " cores";
    if (const std::string gpu = str(field(m, "gpu"), "name"); !gpu.empty()) seen.gpus.insert(gpu);
    if (const std::string c = str(m, "compiler"); !c.empty()) seen.compilers.insert(c);
  }
  std::vector<std::string> described() const {
    std::vector<std::string> out;
    for (const auto& [key, seen] : by_key_) {
      std::string s = seen.base;
      for (const std::string& g : seen.gpus) s += ", " + g;
      std::string compilers;
      for (const std::string& c : seen.compilers) compilers += (compilers.empty() ? "" : " / ") + c;
      out.push_back(s + "; " + compilers);
    }
    return out;
  }

 private:
  struct Seen {
    std::string base;
    std::set<std::string> gpus, compilers;
  };
  std::map<std::string, Seen> by_key_;
};

json number_or_null(const json& o, const char* key) {
  const std::optional<double> v = num(o, key);
  return v ? json(*v) : json();
}

// ln(t / t_role) over a case's runs, from the rival timed beside it (bench[].side_by_side), if one was.
std::optional<double> paired_log(const json& c, const char* role) {
  if (const json& pairs = field(c, "side_by_side"); pairs.is_array())
    for (const json& p : pairs)
      if (str(p, "role") == role)
        if (const auto r = num(p, "median_ratio"); r && *r > 0) return std::log(*r);
  return std::nullopt;
}

// A case's share of the performance points: the report's own (bench[].share, as the score took it,
// judge/timing/score.h), else, for a report of a judge that wrote none, the score's own computation
// (performance_estimate) over the case's fields: its ratios to the rivals timed beside it, and its baseline and
// fast medians in place of the cached scale (the score took the cached fast time where the baseline was not
// timed beside; the report holds this run's).
std::optional<double> case_share(const json& c) {
  if (const auto share = num(c, "share")) return std::clamp(*share, 0.0, kMaxFraction);
  BenchResult b;
  b.name = str(c, "name");
  b.stats.median = num(c, "median_s").value_or(0.0);
  for (const char* role : {"fast", "baseline"}) {
    if (const auto l = paired_log(c, role)) {
      BenchResult::Paired& p = b.paired.emplace_back();
      p.role = role;
      p.median_log = *l;
    }
  }
  Scale scale;
  scale.cases.push_back({b.name, num(c, "baseline_median_s").value_or(0.0), num(c, "fast_median_s").value_or(0.0)});
  const std::optional<Fraction> estimate = performance_estimate({b}, scale);
  if (!estimate || estimate->shares.empty()) return std::nullopt;
  return estimate->shares.front().second;
}

json case_entry(const json& c) {
  const auto share = case_share(c);
  const auto to_fast = paired_log(c, "fast");
  return {{"name", str(c, "name")},
          {"sizes", str(c, "sizes")},
          {"median_s", num(c, "median_s").value_or(0.0)},
          {"baseline_s", number_or_null(c, "baseline_median_s")},
          {"fast_s", number_or_null(c, "fast_median_s")},
          {"ratio_to_fast", to_fast ? json(std::exp(*to_fast)) : json()},
          {"share", share ? json(*share) : json()}};
}

// A report's row in the leaderboard (readable_report(report)): every field read tolerantly, so none throws.
json result_entry(const json& report) {
  json bench = json::array();
  if (const json& b = field(report, "bench"); b.is_array())
    for (const json& c : b) bench.push_back(case_entry(c));
  const json& score = field(report, "score");
  const std::string message = str(report, "message");
  const std::string note = str(score, "note");
  const std::string noise = str(score, "noise");
  const bool emulated = field(report, "emulated") == true || field(report, "emulation").is_object();
  return {{"verdict", str(report, "verdict")},
          {"score", num(score, "total").value_or(0.0)},
          {"max", num(score, "max").value_or(0.0)},
          {"plus_minus", number_or_null(score, "plus_minus")},
          {"noisy", !noise.empty()},
          {"noise", one_line(noise, 200)},
          {"emulated", emulated},
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
constexpr const char* kJudgeError = "JE";  // the judge's own fault: never a student's verdict, never ranked

// A participant's row: the total of their graded results, and why they are not ranked, if they are not: no
// result at all ("no submission"), or a judge error on a problem ("judge error"; their total is not final).
json participant_row(const std::string& name, const json& results_of, double max_total, const std::string& note) {
  double total = 0;
  std::vector<std::string> judge_errors;
  for (const auto& [slug, r] : results_of.items()) {
    if (r["verdict"] == kJudgeError) judge_errors.push_back(slug);
    else total += r["score"].get<double>();
  }
  std::string unranked, why;
  if (results_of.empty()) {
    unranked = "no submission";
  } else if (!judge_errors.empty()) {
    unranked = "judge error";
    for (const std::string& slug : judge_errors) why += (why.empty() ? "" : ", ") + slug;
    why = "not ranked until " + why + " is graded again: the judge failed, not the submission";
  }
  return {{"name", name}, {"total", total}, {"max", max_total}, {"note", note}, {"results", results_of},
          {"unranked", unranked}, {"unranked_why", why}};
}

// Ranked rows first, by total descending, ties by name in byte order sharing a rank (1, 2, 2, 4); then those
// with a judge error, then those without a submission, each by name, with a null rank.
void rank_rows(std::vector<json>& rows) {
  const auto group = [](const json& r) {
    const std::string u = r["unranked"];
    return u.empty() ? 0 : u == "judge error" ? 1 : 2;
  };
  std::sort(rows.begin(), rows.end(), [&](const json& a, const json& b) {
    if (group(a) != group(b)) return group(a) < group(b);
    if (group(a) == 0 && a["total"] != b["total"]) return a["total"].get<double>() > b["total"].get<double>();
    return a["name"].get<std::string>() < b["name"].get<std::string>();
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    if (group(rows[i]) != 0) {
      rows[i]["rank"] = nullptr;
      continue;
    }
    rows[i]["rank"] = i > 0 && rows[i]["total"] == rows[i - 1]["total"] ? rows[i - 1]["rank"].get<int>()
                                                                        : static_cast<int>(i + 1);
  }
}

// The rank's cell: the rank, or why there is none.
std::string rank_text(const json& row) {
  return row["rank"].is_number() ? std::to_string(row["rank"].get<int>()) : row["unranked"].get<std::string>();
}

// A score with its interval: "71.1 ± 12.4", or "71.1" where it has none.
std::string score_text(const json& r) {
  std::string s = fixed1(r["score"]);
  if (r["plus_minus"].is_number()) s += " \xC2\xB1 " + fixed1(r["plus_minus"]);
  return s;
}

// What a reader must know beside a score: "noisy (load average ...)", "emulated".
std::string marks_text(const json& r) {
  std::string s;
  if (r["noisy"] == true) s = "noisy (" + r["noise"].get<std::string>() + ")";
  if (r["emulated"] == true) s += (s.empty() ? "" : "; ") + std::string("emulated (CPU emulation of the GPU: no timing)");
  return s;
}

}  // namespace

std::string results_folder(const std::string& participant) {
  static const std::set<std::string> own = {"leaderboard.csv", "leaderboard.md", "leaderboard.json",
                                            "leaderboard.html", "slurm", kBatchFile};
  std::string folder;
  for (size_t i = 0; i < participant.size(); ++i) {
    const char c = participant[i];
    folder += c == '%' ? "%25" : c == '/' ? "%2F" : c == '.' && i == 0 ? "%2E" : std::string(1, c);
  }
  return own.count(folder) || folder.ends_with(kRenamed) ? folder + kRenamed : folder;
}

std::string participant_of_folder(const std::string& folder) {
  const std::string f = folder.ends_with(kRenamed) ? folder.substr(0, folder.size() - std::strlen(kRenamed)) : folder;
  std::string name;
  for (size_t i = 0; i < f.size(); ++i) {
    const std::string_view code = std::string_view(f).substr(i, 3);
    const char c = code == "%25" ? '%' : code == "%2F" ? '/' : code == "%2E" ? '.' : 0;
    if (c) name += c, i += 2;
    else name += f[i];
  }
  return name;
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

namespace {

// The batch's record (RESULTS/batch.json): the problem list, what was not graded, the packs' checks; an empty
// object where there is none or it cannot be read.
json batch_record(const fs::path& results) {
  json batch = json::object();
  try {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(results / kBatchFile, ec)))
      batch = parse_untrusted_json(read_regular_file(results / kBatchFile, 16 << 20), 16 << 20);
  } catch (const FileRefused&) {
  }
  return batch.is_object() ? batch : json::object();
}

std::vector<std::string> class_problems(const json& batch) {
  std::vector<std::string> listed;
  if (batch.contains("problems") && batch["problems"].is_array())
    for (const json& p : batch["problems"])
      if (p.is_string()) listed.push_back(p.get<std::string>());
  return listed;
}

// Every participant's results, read from their folders: the reports of the listed problems (any, without a
// list), each problem graded, and the machines they were graded on.
struct Results {
  std::map<std::string, json> by_participant;  // name -> {slug: result entry}
  std::set<std::string> slugs;
  Machines machines;
};

// One participant's folder: each readable report of a listed problem.
void read_folder(const fs::path& dir, const std::vector<std::string>& listed, json& mine, Results& out) {
  mine = json::object();
  for (const auto& f : fs::directory_iterator(dir)) {
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
    out.slugs.insert(slug);
    out.machines.add(field(report, "machine"));
  }
}

Results read_results(const fs::path& results, const std::vector<std::string>& listed) {
  Results out;
  for (const auto& dir : fs::directory_iterator(results)) {
    if (!dir.is_directory() || dir.path().filename().string().front() == '.') continue;
    const std::string folder = dir.path().filename().string();
    if (folder == "slurm") continue;  // the judge's own; a participant of that name is in "slurm (participant)"
    json& mine = out.by_participant[participant_of_folder(folder)];
    read_folder(dir.path(), listed, mine, out);
  }
  return out;
}

// The leaderboard's columns: the class's problems, else every problem anyone was graded on; `max_total` their
// points.
json problem_columns(const std::vector<std::string>& listed, const std::set<std::string>& slugs, double& max_total) {
  json problems = json::array();
  max_total = 0;
  for (const auto& slug : listed.empty() ? std::vector<std::string>(slugs.begin(), slugs.end()) : listed) {
    const Problem* p = Registry::find(slug);
    const double max = p ? p->info().points.total() : 0;
    max_total += max;
    problems.push_back({{"slug", slug},
                        {"title", p ? p->info().title : slug},
                        {"kind", p ? kind_name(p->info().kind) : "?"},
                        {"max", max}});
  }
  return problems;
}

json not_graded_list(const json& batch) {
  json not_graded = json::array();
  if (batch.contains("not_graded") && batch["not_graded"].is_array())
    for (const json& n : batch["not_graded"]) {
      if (!n.is_object()) continue;
      const auto text = [&](const char* key) {
        return n.contains(key) && n[key].is_string() ? n[key].get<std::string>() : std::string();
      };
      not_graded.push_back({{"participant", text("participant")}, {"file", text("file")}, {"reason", text("reason")}});
    }
  return not_graded;
}

// A participant whose files were all passed over: said beside "no submission".
void say_why_no_submission(std::vector<json>& rows, const json& not_graded) {
  for (json& row : rows) {
    if (row["unranked"] != "no submission") continue;
    const auto n = std::count_if(not_graded.begin(), not_graded.end(),
                                 [&](const json& g) { return g["participant"] == row["name"]; });
    if (n) row["unranked_why"] = std::to_string(n) + " file(s) not graded (listed under Not graded)";
  }
}

}  // namespace

json leaderboard_model(const fs::path& results) {
  const json batch = batch_record(results);
  const std::vector<std::string> listed = class_problems(batch);
  const json packs = batch.contains("packs") && batch["packs"].is_object() ? batch["packs"] : json::object();
  Results read = read_results(results, listed);
  double max_total = 0;
  const json problems = problem_columns(listed, read.slugs, max_total);
  std::vector<json> rows;
  for (auto& [name, results_of] : read.by_participant) {
    const std::string note = packs.contains(name) && packs[name].is_string() ? packs[name].get<std::string>() : "";
    rows.push_back(participant_row(name, results_of, max_total, note));
  }
  rank_rows(rows);
  const json not_graded = not_graded_list(batch);
  say_why_no_submission(rows, not_graded);
  return {{"title", "hpcjudge leaderboard"},
          {"generated_at", utc_now()},
          {"problems", problems},
          {"problem_list", listed.empty() ? "the problems anyone was graded on" : "the class's problem list"},
          {"machines", json(read.machines.described())},
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
    cell(p["slug"].get<std::string>() + " \xC2\xB1");
    cell(p["slug"].get<std::string>() + " marks");
  }
  s += ",graded_at,machine,note\n";
  for (const auto& row : model["participants"]) {
    s += csv_field(rank_text(row));
    cell(row["name"]);
    cell(fixed1(row["total"]));
    cell(fixed1(row["max"]));
    std::string when, machine;
    for (const auto& p : model["problems"]) {
      const std::string slug = p["slug"];
      if (!row["results"].contains(slug)) {
        s += ",,,,,";
        continue;
      }
      const json& r = row["results"][slug];
      const bool je = r["verdict"] == kJudgeError;
      cell(r["verdict"]);
      cell(je ? "" : fixed1(r["score"]));  // no points, not 0 points
      cell(je ? "judge error: " + r["reason"].get<std::string>() : r["reason"].get<std::string>());
      cell(r["plus_minus"].is_number() ? fixed1(r["plus_minus"]) : "");
      cell(marks_text(r));
      when = std::max(when, r["graded_at"].get<std::string>());
      if (!r["machine"].get<std::string>().empty()) machine = r["machine"];
    }
    cell(when);
    cell(machine);
    const std::string why = row.value("unranked_why", ""), note = row.value("note", "");
    cell(why + (why.empty() || note.empty() ? "" : "; ") + note);
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

namespace {

bool any_interval(const json& model) {
  for (const auto& row : model["participants"])
    for (const auto& [slug, r] : row["results"].items())
      if (r["plus_minus"].is_number()) return true;
  return false;
}

// Under the Markdown table: each noisy grade's cause, and what "emulated" means.
std::string markdown_marks(const json& model) {
  std::string noisy;
  bool emulated = false;
  for (const auto& row : model["participants"])
    for (const auto& [slug, r] : row["results"].items()) {
      if (r["noisy"] == true)
        noisy += "- " + md_cell(row["name"]) + ", " + md_cell(slug) + ": " + md_cell(r["noise"]) + "\n";
      emulated = emulated || r["emulated"] == true;
    }
  std::string s;
  if (any_interval(model)) s += "\nA score's \xC2\xB1 is its interval's half-width (about 95%).\n";
  if (!noisy.empty())
    s += "\nNoisy: the machine was busy while these were timed (the interval is over " + fixed1(kNoisyPoints) +
         " points either side); `judge batch --regrade-noisy` grades them again:\n\n" + noisy;
  if (emulated)
    s += "\nEmulated: the CUDA code ran under the judge's CPU emulation (no GPU here): correctness only, no "
         "timing.\n";
  return s;
}

}  // namespace

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
    s += "| " + rank_text(row) + " | ";
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
      if (r["verdict"] == kJudgeError) {
        s += "judge error — " + md_cell(r.value("reason", "")) + " |";
        continue;
      }
      s.append(md_cell(r["verdict"].get<std::string>()));
      s.push_back(' ');
      s.append(score_text(r));
      if (r["noisy"] == true) s += " (noisy)";
      if (r["emulated"] == true) s += " (emulated)";
      if (const std::string why = r.value("reason", ""); !why.empty()) s += " — " + md_cell(why);
      s += " |";
    }
    s.push_back(' ');  // appended apart: `" " + std::string` sets off g++ 12's false -Wrestrict
    const std::string why = row.value("unranked_why", ""), note = row.value("note", "");
    s += md_cell(why + (why.empty() || note.empty() ? "" : "; ") + note);
    s += " |\n";
  }
  s += "\nMaximum: " + md_cell(model.value("problem_list", "")) + ".\n";
  s += markdown_marks(model);
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
