#include "judge/classroom/kept_reports.h"

#include <algorithm>
#include <map>
#include <set>

#include "sdk/problem.h"
#include "judge/classroom/leaderboard.h"
#include "judge/grading/grade.h"
#include "judge/machine/gpu.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

// Why a file's report is not current, or "" when it is.
std::string regrade_reason(const Paths& paths, const BatchJob& j, const GradedFrom& now, const BatchOptions& opt) {
  if (opt.force) return "--force";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(j.report, ec))) return "";  // new: graded, not regraded
  const json report = tolerant::read_file(j.report, 64 << 20);
  if (!readable_report(report)) return "its report cannot be read";
  GradedFrom then;
  try {
    then = GradedFrom::from_json(report.value("graded_from", json::object()));
  } catch (const json::exception&) {
    return "its report cannot be read";
  }
  if (report["verdict"] == "JE") return "a judge error (JE) is the judge's fault, never kept";
  if (then.empty()) return "its report records nothing of what it was graded from (an older judge, or a grading that did not finish)";
  const Problem& p = *Registry::find(j.slug);
  const bool gpu_here = !nvcc_path().empty() && probe_gpu(paths, 0).usable();
  if (report["verdict"] == "SKIP" && j.refused.empty()) {
    const bool runs_here = p.info().kind == Kind::CPU || gpu_here || (opt.emulate && emulator_built());
    if (runs_here) return "SKIP where it was graded, and this machine can run it";
  }
  if (report.value("emulated", json(false)) == json(true) && p.info().kind == Kind::GPU && !opt.emulate && !gpu_here)
    return "graded by CPU emulation, and this batch is --no-emulate";
  return joined(then.differences(now), "; ");
}

// Reports in RESULTS with no file behind them any more (the file deleted, the participant's
// folder gone, the file no longer graded): removed, each listed. With `only` (a
// --participant batch) only that participant's folder is looked at.
std::vector<std::string> remove_stale_reports(const fs::path& out, const ClassList& c,
                                              const std::optional<std::string>& only) {
  std::set<std::pair<std::string, std::string>> current;  // (participant, slug)
  for (const auto& j : c.jobs) current.insert({j.participant, j.slug});
  const std::set<std::string> in_class(c.participants.begin(), c.participants.end());
  std::map<std::pair<std::string, std::string>, std::string> not_graded;  // why a file of that slug is not graded
  for (const auto& n : c.not_graded) not_graded[{n.participant, fs::path(n.file).stem().string()}] = n.reason;
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& dir : fs::directory_iterator(out, ec)) {
    const std::string folder = dir.path().filename().string();
    if (!dir.is_directory() || dir.is_symlink() || folder.front() == '.' || folder == "slurm") continue;
    const std::string who = participant_of_folder(folder);
    if (results_folder(who) != folder) continue;  // not a folder this judge names after a participant
    if (only && who != *only) continue;
    const bool gone = !in_class.count(who);
    for (const auto& f : fs::directory_iterator(dir.path(), ec)) {
      if (!f.is_regular_file() || f.is_symlink()) continue;
      const std::string name = f.path().filename().string();
      if (gone && name == "junit.xml") {
        fs::remove(f.path(), ec);
        continue;
      }
      if (f.path().extension() != ".json") continue;
      const json report = tolerant::read_file(f.path(), 64 << 20);
      if (!report.is_object() || !report.contains("problem") || !report["problem"].is_string()) continue;
      const std::string slug = report["problem"];
      if (!gone && current.count({who, slug})) continue;
      std::string why;
      if (gone) why = "the participant's folder is gone from the class";
      else if (auto it = not_graded.find({who, slug}); it != not_graded.end()) why = "not graded now: " + it->second;
      else why = "its source is gone";
      fs::remove(f.path(), ec);
      removed.push_back((dir.path() / name).string() + ": " + why);
    }
    if (gone && fs::is_empty(dir.path(), ec)) fs::remove(dir.path(), ec);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace hpcjudge
