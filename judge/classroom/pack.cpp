#include "judge/classroom/pack.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/isolation/process.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string default_name(const Paths& paths) {
  const RunResult r = run_command({"git", "-C", paths.root.string(), "config", "user.name"}, 10);
  std::string name = r.status.exited && r.status.code == 0 ? r.output.substr(0, r.output.find('\n')) : "";
  if (name.empty() && std::getenv("USER")) name = std::getenv("USER");
  return name;
}

std::string sha256(const fs::path& f) {
  const RunResult r = run_command({"sha256sum", f.string()}, 60);
  if (!r.status.exited || r.status.code != 0) throw std::runtime_error("cannot hash " + f.string());
  return r.output.substr(0, r.output.find(' '));
}

}  // namespace

std::string save_local_report(const Paths& paths, const std::string& slug, const std::string& json_text) {
  const fs::path file = paths.reports / (slug + ".json");
  std::error_code ec;
  fs::create_directories(paths.reports, ec);
  {
    std::ofstream out(file);
    out << json_text;
    out.flush();
    if (out) return "";
  }
  const std::string why = std::strerror(errno);
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

std::string make_pack(const Paths& paths, const PackOptions& opt) {
  std::vector<std::string> slugs = opt.slugs;
  if (slugs.empty()) {
    for (const Problem* p : Registry::all())
      if (fs::exists(paths.reports / (p->info().slug + ".json"))) slugs.push_back(p->info().slug);
    if (slugs.empty())
      throw std::runtime_error("nothing to pack: judge a problem first (./judge/judge SLUG), or name the problems");
  }
  std::string name = opt.name.empty() ? default_name(paths) : opt.name;
  std::replace(name.begin(), name.end(), '/', '_');
  if (name.empty() || name == "." || name == "..") throw std::runtime_error("give your name with --name");
  char tmpl[] = "/tmp/hpcjudge-pack-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary folder");
  const fs::path stage = fs::path(tmpl) / name;
  fs::create_directories(stage / "reports");
  json files = json::array();
  std::string warnings;
  for (const auto& slug : slugs) {
    const Problem* p = Registry::find(slug);
    if (!p) throw std::runtime_error("unknown problem '" + slug + "'");
    const fs::path src = paths.problem_dir(slug) / ("solution." + p->info().source_ext);
    if (!fs::exists(src)) throw std::runtime_error(src.string() + ": no such file");
    const fs::path dst = stage / (slug + "." + p->info().source_ext);
    fs::copy_file(src, dst);
    files.push_back({{"path", dst.filename().string()}, {"problem", slug}, {"sha256", sha256(dst)}});
    const fs::path report = paths.reports / (slug + ".json");
    if (fs::exists(report)) {
      // Only a report of the file as it is now: an edit since, or a report that could
      // not be saved, leaves one of another version behind.
      std::ifstream in(report);
      const json j = json::parse(in, nullptr, false);
      const std::string key = j.is_object() ? j.value("source_key", "") : "";
      if (key == file_key(src))
        fs::copy_file(report, stage / "reports" / report.filename());
      else
        warnings += "warning: " + report.string() + " is the report of another version of " + src.string() +
                    ": packed without it (judge it again: ./judge/judge " + slug + ")\n";
    }
  }
  const json manifest = {{"participant", name},
                         {"judge_version", HPCJUDGE_VERSION},
                         {"created_at", utc_now()},
                         {"files", files}};
  std::ofstream(stage / "manifest.json") << manifest.dump(2) << "\n";
  const fs::path out = fs::absolute(opt.out);
  const RunResult tar = run_command({"tar", "-czf", out.string(), "-C", tmpl, name}, 120);
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  if (!tar.status.exited || tar.status.code != 0) throw std::runtime_error("tar failed: " + tar.output);
  return warnings + "packed " + std::to_string(slugs.size()) + " solution(s) of '" + name + "' into " + out.string() +
         " (unpack packs into one folder and run: judge batch FOLDER)";
}

}  // namespace hpcjudge
