#include "judge/classroom/pack.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include "protocol/json.h"

#include "sdk/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/grading/grade.h"
#include "judge/isolation/process.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "judge/sha256.h"
#include "judge/versions.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string default_name(const Paths& paths) {
  const RunResult r = run_command({"git", "-C", paths.root.string(), "config", "user.name"}, 10);
  std::string name = r.status.exited && r.status.code == 0 ? r.output.substr(0, r.output.find('\n')) : "";
  if (name.empty()) name = settings::Settings::at_start().get(settings::kUser).value_or("");
  return name;
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

fs::path source_report_file(const Paths& paths, const std::string& slug, const std::string& source_path) {
  return paths.reports / slug / (sha256_hex(source_path).substr(0, 16) + ".json");
}

namespace {

// A source file's own report, beside the problem's latest; the problem's folder pruned to the most recent.
void keep_source_report(const Paths& paths, const std::string& slug, const std::string& source_path,
                        const std::string& json_text) {
  if (source_path.empty() || json_text.size() > kMaxKeptSourceReport) return;
  std::error_code ec;
  const fs::path file = source_report_file(paths, slug, source_path);
  fs::create_directories(file.parent_path(), ec);
  if (ec || !write_aside(file, [&](std::ostream& out) { out << json_text; }).empty()) return;
  std::vector<std::pair<fs::file_time_type, fs::path>> kept;
  for (const auto& e : fs::directory_iterator(file.parent_path(), ec))
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) kept.emplace_back(e.last_write_time(ec), e.path());
  if (kept.size() <= kKeptSourceReports) return;
  std::sort(kept.begin(), kept.end());
  for (size_t i = 0; i + kKeptSourceReports < kept.size(); ++i) fs::remove(kept[i].second, ec);
}

}  // namespace

std::string save_local_report(const Paths& paths, const std::string& slug, const std::string& source_path,
                              const std::string& json_text) {
  const fs::path file = paths.reports / (slug + ".json");
  // Aside first, then renamed over it: two judges at work at once never leave half a report.
  const std::string why = write_aside(file, [&](std::ostream& out) { out << json_text; });
  if (why.empty()) keep_source_report(paths, slug, source_path, json_text);
  if (why.empty()) return "";
  std::error_code ec;
  // The nearest folder that exists on the way to the file, and who owns it.
  fs::path owned = paths.reports;
  while (!fs::exists(owned, ec) && owned.has_parent_path() && owned != owned.parent_path()) owned = owned.parent_path();
  struct stat st {};
  std::string owner;
  if (stat(owned.c_str(), &st) == 0 && st.st_uid != geteuid()) {
    const passwd* pw = getpwuid(st.st_uid);
    owner = pw ? pw->pw_name : std::to_string(st.st_uid);
  }
  const fs::path top = paths.root / ".hpcjudge";
  std::string fix = "sudo chown -R \"$USER\" " + top.string();
  const fs::path build = paths.judge.parent_path().parent_path();
  if (stat(build.c_str(), &st) == 0 && st.st_uid != geteuid()) fix += " " + build.string();
  return "warning: the report was not saved to " + file.string() + " (" + why + ")" +
         (owner.empty() ? "" : ": " + owned.string() + " belongs to " + owner + (owner == "root" ? " (after sudo make judge?)" : "")) +
         "; judge pack hands in only a report of the file as it is now. Fix: " + fix;
}

bool is_untouched_starter(const Paths& paths, const std::string& slug, const std::string& bytes) {
  const Problem* p = Registry::find(slug);
  if (!p) return false;
  std::ifstream in(paths.root / "problems" / "starters.sha256");
  const std::string mine = sha256_hex(bytes), name = slug + "/solution." + p->info().source_ext;
  for (std::string line; std::getline(in, line);)  // sha256sum's format: "<hex>  <slug>/solution.<ext>"
    if (line.size() > 66 && line.substr(66) == name) return line.substr(0, 64) == mine;
  return false;
}

namespace {

std::string text_field(const json& j, const char* key) {
  return j.is_object() && j.value(key, json("")).is_string() ? j.value(key, "") : "";
}

// The report packed with a file: the one kept for that file (save_local_report), else the problem's latest,
// where it graded the file as it is now (`sha`). `changed`: a report of the file that graded other bytes (the
// problem's latest where it is one).
struct FileReport {
  json report;
  fs::path changed;
};

FileReport report_of(const Paths& paths, const std::string& slug, const fs::path& file, const std::string& source,
                     const std::string& sha) {
  FileReport out;
  std::error_code ec;
  const fs::path latest = paths.reports / (slug + ".json");
  for (const fs::path& candidate : {source_report_file(paths, slug, source), latest}) {
    if (!fs::exists(candidate, ec)) continue;
    json report = tolerant::read_file(candidate, 64 << 20);
    if (!report.is_object()) continue;
    const std::string judged_path = text_field(report, "source_path");
    const std::string judged_sha = text_field(report.value("graded_from", json::object()), "source_sha256");
    if (!judged_path.empty() && judged_path != source) continue;  // another file's (an older judge's names none)
    if (judged_sha.empty() ? report.value("source_key", json("")) == file_key(file) : judged_sha == sha)
      return {std::move(report), {}};
    if (out.changed.empty() || candidate == latest) out.changed = candidate;
  }
  return out;
}

// What to pack: "slug" (the file its latest report names) or "slug=file".
struct Item {
  const Problem* problem;
  fs::path file;  // named on the command line; empty: the report's
};

// The items named on the command line, each problem once.
std::vector<Item> items_named(const std::vector<std::string>& args) {
  std::vector<Item> items;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    const std::string slug = arg.substr(0, eq);
    const Problem* p = Registry::find(slug);
    if (!p) throw std::runtime_error("unknown problem '" + slug + "' ('judge list' shows them; SLUG=FILE names a file)");
    if (eq != std::string::npos && eq + 1 == arg.size()) throw std::runtime_error(arg + ": no file after '='");
    for (const Item& i : items)
      if (i.problem == p) throw std::runtime_error("problem '" + slug + "' named twice");
    items.push_back({p, eq == std::string::npos ? fs::path() : fs::path(arg.substr(eq + 1))});
  }
  return items;
}

// Without names, every problem judged here (it has a latest local report).
std::vector<Item> items_judged(const Paths& paths) {
  std::vector<Item> items;
  for (const Problem* p : Registry::all())
    if (fs::exists(paths.reports / (p->info().slug + ".json"))) items.push_back({p, {}});
  if (items.empty())
    throw std::runtime_error("nothing to pack: judge a problem first (./judge/judge SLUG [FILE]), or name the "
                             "problems (SLUG or SLUG=FILE)");
  return items;
}

// The participant's name, as the pack's folder: --name, else git's user.name, else $USER.
std::string participant_name(const Paths& paths, const PackOptions& opt) {
  std::string name = opt.name.empty() ? default_name(paths) : opt.name;
  std::replace(name.begin(), name.end(), '/', '_');
  if (name.empty() || name == "." || name == "..") throw std::runtime_error("give your name with --name");
  return name;
}

// The file to pack for an item: the one named, else the one its problem's latest report names, else the
// problem's solution file.
fs::path file_of(const Paths& paths, const Item& item, const std::string& slug, const std::string& ext) {
  const fs::path report_file = paths.reports / (slug + ".json");
  json report;
  std::error_code ec;
  if (fs::exists(report_file, ec)) {
    report = tolerant::read_file(report_file, 64 << 20);
    if (!report.is_object()) report = json();
  }
  fs::path file = item.file;
  if (file.empty() && report.is_object()) {
    const std::string judged = report.value("source_path", json("")).is_string() ? report.value("source_path", "") : "";
    if (judged.empty()) file = paths.problem_dir(slug) / ("solution." + ext);  // a report of an older judge
    else file = judged;
    if (!fs::exists(file, ec))
      throw std::runtime_error("the file you last judged for " + slug + ", " + file.string() +
                               ", is gone: judge the file to hand in, or name it (" + slug + "=FILE)");
  }
  if (file.empty()) file = paths.problem_dir(slug) / ("solution." + ext);
  if (file.extension() != "." + ext) throw std::runtime_error(file.string() + ": " + slug + " takes a ." + ext + " file");
  return file;
}

// A file as it goes into the pack, with its report where there is one of it as it is now.
struct Packed {
  std::string slug, ext, bytes, sha, source, report_text, verdict;
  bool starter = false;
};

// The report packed with a file, and a warning for a file without one, SKIP, not AC or judged without timing.
void add_report(Packed& k, const FileReport& found, const std::string& shown, std::vector<std::string>& warnings) {
  const json& report = found.report;
  if (!report.is_object()) {
    warnings.push_back(found.changed.empty()
                           ? "warning: " + shown + " has never been judged here: packed without a report (judge it: "
                             "./judge/judge " + k.slug + " " + k.source + ")"
                           : "warning: " + found.changed.string() + " is the report of another version of " + k.source +
                                 " (changed since it was judged): packed without it (judge it again: ./judge/judge " +
                                 k.slug + " " + k.source + ")");
    return;
  }
  const json from = report.value("graded_from", json::object());
  k.report_text = report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  k.verdict = report.value("verdict", json("?")).is_string() ? report.value("verdict", "?") : "?";
  const json score = report.value("score", json::object());
  if (k.verdict == "SKIP")
    warnings.push_back("warning: " + shown + " was judged SKIP (this machine cannot run it): it is packed, but "
                       "no one has seen it run; judge it on a machine with an NVIDIA GPU if you can");
  else if (k.verdict != "AC")
    warnings.push_back("warning: " + shown + " was judged " + k.verdict + ": " +
                       report.value("message", json("")).get<std::string>().substr(0, 200));
  if (from.is_object() && !from.value("bench", true))
    warnings.push_back("warning: " + shown + " was judged with --no-bench: its report has no timing");
  k.verdict += " " + fixed1(score.is_object() ? score.value("total", 0.0) : 0.0);
}

// An item read and checked (nothing is written before every item is).
Packed read_item(const Paths& paths, const Item& item, std::vector<std::string>& warnings) {
  const std::string slug = item.problem->info().slug, ext = item.problem->info().source_ext;
  const fs::path file = file_of(paths, item, slug, ext);
  Packed k;
  k.slug = slug, k.ext = ext;
  try {
    k.bytes = read_followed_file(file, kMaxSourceBytes);
  } catch (const FileRefused& e) {
    throw std::runtime_error(std::string(e.what()));
  }
  k.sha = sha256_hex(k.bytes);
  k.source = fs::absolute(file).lexically_normal().string();
  k.starter = is_untouched_starter(paths, slug, k.bytes);
  const std::string shown = slug + "." + ext + " (" + k.source + ")";
  if (k.starter)
    warnings.push_back("warning: " + shown + " is the starter as it was given, untouched: nothing of yours to grade");
  add_report(k, report_of(paths, slug, file, k.source, k.sha), shown, warnings);
  return k;
}

// The pack's folder, `stage`: each file named by slug, its report under reports/, and the manifest. Returns a
// line per file.
std::vector<std::string> stage_pack(const fs::path& stage, const std::string& name, const std::vector<Packed>& packed,
                                    size_t& with_reports) {
  fs::create_directories(stage / "reports");
  json files = json::array();
  std::vector<std::string> lines;
  for (const Packed& k : packed) {
    const std::string dst = k.slug + "." + k.ext;
    write_file_atomically(stage / dst, k.bytes);
    if (!k.report_text.empty()) write_file_atomically(stage / "reports" / (k.slug + ".json"), k.report_text), ++with_reports;
    files.push_back({{"path", dst},
                     {"problem", k.slug},
                     {"sha256", k.sha},
                     {"source", k.source},
                     {"problem_version", problem_version(k.slug)},
                     {"report", !k.report_text.empty()}});
    lines.push_back("  " + dst + " <- " + k.source + (k.report_text.empty() ? "  (no report)" : "  (report: " + k.verdict + ")"));
  }
  const json manifest = {{"participant", name},
                         {"judge_version", judge_version()},
                         {"created_at", utc_now()},
                         {"files", files}};
  write_file_atomically(stage / "manifest.json", manifest.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  return lines;
}

}  // namespace

std::string make_pack(const Paths& paths, const PackOptions& opt) {
  const std::vector<Item> items = opt.slugs.empty() ? items_judged(paths) : items_named(opt.slugs);
  const std::string name = participant_name(paths, opt);
  // Everything is read and checked before anything is written: a refusal packs nothing.
  std::vector<Packed> packed;
  std::vector<std::string> warnings;
  for (const Item& item : items) packed.push_back(read_item(paths, item, warnings));
  if (std::all_of(packed.begin(), packed.end(), [](const Packed& k) { return k.starter; }))
    throw std::runtime_error("nothing to pack: every file is the untouched starter (edit and judge your solution, "
                             "or name the file: SLUG=FILE)");
  // Staged in a folder of the judge's own under TMPDIR, removed however the pack ends.
  const TempDir staging(fs::perms::owner_all);
  size_t with_reports = 0;
  const std::vector<std::string> lines = stage_pack(staging.path / name, name, packed, with_reports);
  const fs::path out = fs::absolute(opt.out);
  const RunResult tar = run_command({"tar", "-czf", out.string(), "-C", staging.path.string(), "--", name}, 120);
  if (!tar.status.exited || tar.status.code != 0) throw std::runtime_error("tar failed: " + tar.output);
  return joined_lines(warnings) + joined_lines(lines) + "packed " + std::to_string(packed.size()) + " solution(s) of '" +
         name + "' into " + out.string() + ", " + std::to_string(with_reports) +
         " with their report (unpack packs into one folder and run: judge batch FOLDER)";
}

}  // namespace hpcjudge
