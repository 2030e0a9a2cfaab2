// `judge batch --slurm`: grade a class on a Slurm cluster. One job array, a
// task per participant, each running `judge batch ... --participant NAME` on
// the node it lands on (the judge, the class and the results folder must be on
// a file system every node sees), and a job that waits for the whole array and
// then writes the leaderboard.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace hpcjudge {

struct SlurmOptions {
  std::string partition;  // sbatch --partition (empty: the cluster's default)
  std::string gres;       // sbatch --gres for each array task, e.g. "gpu:1" (empty: none)
  int throttle = 0;       // at most this many array tasks at once (0: no limit)
  bool exclusive = false; // a node per task: timed grading must not share a machine
};

struct SlurmSubmission {
  std::string array_job;        // job id of the array
  std::string leaderboard_job;  // job id of the leaderboard job
  std::filesystem::path folder; // <results>/slurm: scripts, participant list, logs/
};

// Slurm missing, unreachable or refusing: what() is one line.
struct SlurmError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Submits one job array (one task per participant, %throttle when > 0) in which task i runs
//   <judge> batch <dir> --out <results> --participant <name i> <extra...>
// and a job depending on the whole array (afterany) that runs <judge> leaderboard <results>.
// Writes the scripts and the participant list under <results>/slurm/ (logs in <results>/slurm/logs/).
// Paths are made absolute; names and arguments reach the task without passing through a shell.
SlurmSubmission submit_to_slurm(const std::filesystem::path& judge, const std::filesystem::path& dir,
                                const std::filesystem::path& results, const std::vector<std::string>& participants,
                                const std::vector<std::string>& extra, const SlurmOptions& opt);

// Submits one job: `sbatch --parsable ARGS...` (sbatch found on PATH); returns its job id. SlurmError where sbatch
// is missing or refuses (`what` names the job in the message).
std::string sbatch_job(const std::vector<std::string>& args, const std::string& what);

}  // namespace hpcjudge
