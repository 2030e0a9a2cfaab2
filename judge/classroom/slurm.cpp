#include "judge/classroom/slurm.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "judge/isolation/process.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

// Array task i reads line i+1 of the participant list (mapfile: no word
// splitting, no backslash processing), so a name never passes through a shell.
constexpr const char* kArrayScript = R"(#!/bin/bash
# Written by `judge batch --slurm`: array task i grades participant i (line i+1 of the list).
# Arguments: JUDGE DIR RESULTS PARTICIPANT_LIST [EXTRA...]
set -euo pipefail
judge=$1 dir=$2 results=$3 list=$4
shift 4
mapfile -t names <"$list"
name=${names[$SLURM_ARRAY_TASK_ID]}
echo "hpcjudge: array task $SLURM_ARRAY_TASK_ID on $(hostname): $name"
exec "$judge" batch "$dir" --out "$results" --participant "$name" "$@"
)";

constexpr const char* kLeaderboardScript = R"(#!/bin/bash
# Written by `judge batch --slurm`: runs once the whole job array has ended.
# Arguments: JUDGE RESULTS
set -euo pipefail
exec "$1" leaderboard "$2"
)";

fs::path find_in_path(const std::string& name) {
  for (const std::string& d : settings::path_folders()) {
    const fs::path p = fs::path(d.empty() ? "." : d) / name;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

void write_file(const fs::path& p, const std::string& text, bool executable = false) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  if (!f) throw SlurmError("cannot write " + p.string());
  if (executable) fs::permissions(p, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                                  fs::perm_options::add);
}

// sbatch --parsable prints "JOBID" or "JOBID;CLUSTER" (warnings may come before it on the merged output).
std::string sbatch(const fs::path& exe, std::vector<std::string> args, const std::string& what) {
  args.insert(args.begin(), {exe.string(), "--parsable"});
  const RunResult r = run_command(args, 60);
  if (r.timed_out) throw SlurmError("sbatch did not answer within 60 s submitting the " + what);
  std::string last, line;
  std::istringstream out(r.output);
  while (std::getline(out, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) last = line;
  }
  std::smatch m;
  if (r.status.exited && r.status.code == 0 && std::regex_match(last, m, std::regex(R"(\s*(\d+)(;.*)?\s*)")))
    return m[1];
  for (const std::string prefix : {"sbatch: error: ", "sbatch: "})
    if (last.starts_with(prefix)) last.erase(0, prefix.size());
  throw SlurmError("sbatch refused the " + what + " (" + r.status.describe() + ")" +
                   (last.empty() ? "" : ": " + last));
}

}  // namespace

std::string sbatch_job(const std::vector<std::string>& args, const std::string& what) {
  const fs::path exe = find_in_path("sbatch");
  if (exe.empty()) throw SlurmError("sbatch not found on PATH: --slurm needs Slurm's client commands");
  return sbatch(exe, args, what);
}

SlurmSubmission submit_to_slurm(const fs::path& judge, const fs::path& dir, const fs::path& results,
                                const std::vector<std::string>& participants, const std::vector<std::string>& extra,
                                const SlurmOptions& opt) {
  const fs::path exe = find_in_path("sbatch");
  if (exe.empty()) throw SlurmError("sbatch not found on PATH: --slurm needs Slurm's client commands");
  if (participants.empty()) throw SlurmError("no participants to submit");
  std::string list;
  for (const auto& p : participants) {
    if (p.empty() || p.find('\n') != std::string::npos)
      throw SlurmError("participant name '" + p + "' cannot be passed to a Slurm task (empty or holds a newline)");
    list += p + "\n";
  }

  SlurmSubmission s;
  s.folder = fs::absolute(results) / "slurm";
  std::error_code ec;
  fs::create_directories(s.folder / "logs", ec);
  if (ec) throw SlurmError("cannot create " + (s.folder / "logs").string() + ": " + ec.message());
  const fs::path list_file = s.folder / "participants.txt";
  write_file(list_file, list);
  write_file(s.folder / "batch.sh", kArrayScript, true);
  write_file(s.folder / "leaderboard.sh", kLeaderboardScript, true);

  // Jobs start in the slurm folder (log paths relative to it, so a '%' in the
  // results path is not taken for a Slurm filename pattern); all arguments are absolute.
  std::vector<std::string> common = {"--chdir=" + s.folder.string()};
  if (!opt.partition.empty()) common.push_back("--partition=" + opt.partition);

  std::vector<std::string> array = common;
  std::string range = "0-" + std::to_string(participants.size() - 1);
  if (opt.throttle > 0) range += "%" + std::to_string(opt.throttle);
  array.insert(array.end(), {"--job-name=hpcjudge-batch", "--array=" + range, "--output=logs/batch-%A_%a.out"});
  if (!opt.gres.empty()) array.push_back("--gres=" + opt.gres);
  if (opt.exclusive) array.push_back("--exclusive");
  array.insert(array.end(), {(s.folder / "batch.sh").string(), fs::absolute(judge).string(),
                             fs::absolute(dir).string(), fs::absolute(results).string(), list_file.string()});
  array.insert(array.end(), extra.begin(), extra.end());
  s.array_job = sbatch(exe, array, "job array");

  std::vector<std::string> board = common;
  board.insert(board.end(), {"--job-name=hpcjudge-leaderboard", "--dependency=afterany:" + s.array_job,
                             "--output=logs/leaderboard-%j.out", (s.folder / "leaderboard.sh").string(),
                             fs::absolute(judge).string(), fs::absolute(results).string()});
  try {
    s.leaderboard_job = sbatch(exe, board, "leaderboard job");
  } catch (const SlurmError& e) {
    throw SlurmError(std::string(e.what()) + "; job array " + s.array_job +
                     " was submitted: run `judge leaderboard " + fs::absolute(results).string() +
                     "` once it has finished");
  }
  write_file(s.folder / "jobs.txt", "array " + s.array_job + "\nleaderboard " + s.leaderboard_job + "\n");
  return s;
}

}  // namespace hpcjudge
