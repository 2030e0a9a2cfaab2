#include "judge/classroom/class_folder.h"

#include <algorithm>
#include <map>
#include <set>

#include "sdk/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/grading/grade.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "judge/sha256.h"
#include "judge/suggest.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kMaxManifestBytes = 1 << 20;

// The problem a file is for: "<slug>.<the problem's extension>".
const Problem* problem_of(const fs::path& file) {
  const Problem* p = Registry::find(file.stem().string());
  if (p && file.extension() == "." + p->info().source_ext) return p;
  return nullptr;
}

// The problem files a misnamed file may have meant, "softmax-cpu.cpp" for softmax.cpp or softmax_cpu.cpp ("" for
// none): the closest slugs (judge/suggest.h), of the class's problems where it has a list, those taking the
// file's extension first.
std::string meant_file(const fs::path& file, const std::vector<std::string>& problems) {
  std::vector<std::string> slugs = problems;
  if (slugs.empty())
    for (const Problem* p : Registry::all()) slugs.push_back(p->info().slug);
  std::vector<std::string> same_ext, other;
  for (const std::string& slug : closest(file.stem().string(), slugs)) {
    const Problem& p = *Registry::find(slug);
    const std::string name = slug + "." + p.info().source_ext;
    (file.extension() == "." + p.info().source_ext ? same_ext : other).push_back(name);
  }
  return one_of(same_ext.empty() ? other : same_ext);
}

// Whether a folder holds a file named for a problem (a hidden folder that may be a participant's).
bool holds_problem_file(const fs::path& folder) {
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec))
    if (problem_of(f.path())) return true;
  return false;
}

// Files that `judge pack` adds beside the solutions: not submissions, not warned about.
bool pack_file(const fs::path& f) { return f.filename() == "manifest.json" || f.filename() == "reports"; }

}  // namespace

std::vector<std::string> read_class_file(const fs::path& dir) {
  const fs::path file = dir / "class.json";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return {};
  json j;
  try {
    j = parse_untrusted_json(read_regular_file(file, kMaxManifestBytes), kMaxManifestBytes);
  } catch (const FileRefused& e) {
    throw std::runtime_error(std::string(e.what()));
  }
  if (!j.is_object() || !j.contains("problems") || !j["problems"].is_array())
    throw std::runtime_error(file.string() + ": not a class file; it must be {\"problems\": [\"softmax-cpu\", ...]}");
  std::vector<std::string> problems;
  for (const json& p : j["problems"]) {
    if (!p.is_string() || !Registry::find(p.get<std::string>()))
      throw std::runtime_error(file.string() + ": " + p.dump(-1, ' ', true, json::error_handler_t::replace) +
                               " is no problem ('judge list' shows them)");
    problems.push_back(p.get<std::string>());
  }
  if (problems.empty()) throw std::runtime_error(file.string() + ": the problem list is empty");
  return problems;
}

ClassList scan_class(const fs::path& dir, const fs::path& out, const std::vector<std::string>& problems) {
  ClassList c;
  const std::set<std::string> listed(problems.begin(), problems.end());
  // An entry the batch passes over: a warning, and a line in the leaderboard's "not graded" list.
  const auto skip = [&c](const std::string& who, const fs::path& entry, const std::string& why) {
    c.warnings.push_back("skipped " + entry.string() + ": " + why);
    c.not_graded.push_back({who, entry.filename().string(), why});
  };
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.front() == '.') {
      // Hidden (.git, .hpcjudge, an editor's): passed over, and said where it holds a file the batch would grade
      // under another name, so that no participant is dropped without a word. A canary's folder (CanaryFolder,
      // another Slurm task's while it runs) is the judge's own.
      if (name.starts_with(kCanaryFolderPrefix)) continue;
      if (e.is_directory() && !e.is_symlink() && holds_problem_file(e.path()))
        skip("", e.path(),
             "a hidden folder (its name begins with '.') that holds a problem's file: rename it to grade it");
      continue;
    }
    if (e.is_symlink()) {
      skip("", e.path(), "a symbolic link, not a participant folder");
    } else if (e.is_directory()) {
      std::error_code ec;
      if (fs::equivalent(e.path(), out, ec)) continue;  // the results folder inside the class: no participant
      if (fs::exists(e.path() / kBatchFile, ec))
        skip("", e.path(), "a results folder of another batch (it holds " + std::string(kBatchFile) + ")");
      else
        folders.push_back(e.path());
    } else if (name != "class.json") {
      skip("", e.path(), "not a participant folder");
    }
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    const std::string who = folder.filename().string();
    c.participants.push_back(who);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    size_t mine = 0;
    for (const auto& f : files) {
      const std::string name = f.filename().string();
      if (name.front() == '.') {  // hidden: passed over, said where its name less the dots is a problem's file
        const size_t shown = name.find_first_not_of('.');
        if (shown != std::string::npos && problem_of(name.substr(shown)))
          skip(who, f, "a hidden file (its name begins with '.'): rename it to grade it");
        continue;
      }
      if (pack_file(f)) continue;
      const Problem* p = problem_of(f);
      if (!p) {
        std::string why = "named after no problem";
        if (const Problem* q = Registry::find(f.stem().string()))
          why = q->info().slug + " takes a ." + q->info().source_ext + " file";
        else if (const std::string meant = meant_file(f, problems); !meant.empty())
          why += "; did you mean " + meant + "?";
        skip(who, f, why);
        continue;
      }
      if (!listed.empty() && !listed.count(p->info().slug)) {
        skip(who, f, "not one of this class's problems (" + joined(problems, ", ") + ")");
        continue;
      }
      // Only a regular file of the participant's own is graded; anything else gets a report saying why.
      const std::string refused = not_a_regular_file(f, folder);
      if (!refused.empty()) c.warnings.push_back("not graded: " + refused);
      c.jobs.push_back({who, p->info().slug, f, out / results_folder(who) / (p->info().slug + ".json"), refused});
      ++mine;
    }
    if (mine == 0) c.warnings.push_back("participant '" + who + "' submitted no problem files");
  }
  return c;
}

std::string check_pack(const fs::path& folder, const std::vector<BatchJob>& jobs) {
  const fs::path file = folder / "manifest.json";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return "";
  const json m = tolerant::read_file(file, kMaxManifestBytes);
  if (!m.is_object() || !m.contains("files") || !m["files"].is_array())
    return "pack: its manifest.json cannot be read (not JSON, over " + std::to_string(kMaxManifestBytes >> 20) +
           " MiB or nested deeper than " + std::to_string(kMaxJsonDepth) + ")";
  std::vector<std::string> issues;
  const std::string made_by = m.value("judge_version", json("?")).is_string() ? m.value("judge_version", "?") : "?";
  if (made_by != judge_version()) issues.push_back("packed with judge " + made_by + ", graded with " + judge_version());
  std::map<std::string, std::string> listed;  // file name -> sha256
  for (const json& f : m["files"]) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string()) continue;
    listed[f["path"].get<std::string>()] = f.value("sha256", json("")).is_string() ? f.value("sha256", "") : "";
  }
  for (const auto& [name, sha] : listed) {
    const fs::path path = folder / name;
    if (name.find('/') != std::string::npos || !fs::exists(fs::symlink_status(path, ec))) {
      issues.push_back(name + " is in its manifest but not in the folder");
      continue;
    }
    std::string bytes;
    try {
      bytes = read_regular_file(path, kMaxSourceBytes);
    } catch (const FileRefused&) {
      issues.push_back(name + " cannot be read to check it");
      continue;
    }
    if (sha256_hex(bytes) != sha) issues.push_back(name + " changed since it was packed (SHA-256 differs)");
  }
  for (const auto& j : jobs)
    if (!listed.count(j.file.filename().string())) issues.push_back(j.file.filename().string() + " is not in its manifest");
  return issues.empty() ? "" : "pack does not match its manifest: " + joined(issues, "; ");
}

}  // namespace hpcjudge
