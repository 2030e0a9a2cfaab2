// Grading a whole class: `judge batch DIR`. DIR holds one folder per
// participant (the folder's name is the participant), each with solution
// files named by problem slug (softmax-cpu.cpp, vector-add.cu, ...). Every
// file is graded by its own child judge process, so a submission that
// crashes, hangs or floods its output costs only its own verdict. Reports go
// to RESULTS/<participant>/<slug>.json as they finish, so an interrupted
// batch resumes where it stopped; then the leaderboard is written.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/paths.h"
#include "judge/classroom/slurm.h"

namespace hpcjudge {

struct BatchOptions {
  std::filesystem::path dir;
  std::filesystem::path out;
  bool force = false;        // regrade files that already have a report
  bool bench = true;
  std::string seed_file;     // the staff's secret seed: its file (hidden from submissions; for Slurm tasks)
  std::optional<uint64_t> secret_seed;  // and the seed read from it, handed to child judges in the environment
  bool unisolated = false;   // --unsafe-no-isolation
  std::string participant;   // grade only this one (a Slurm array task); no leaderboard
  bool sandbox = false;      // each child judge runs its submission under bubblewrap
  bool slurm = false;
  SlurmOptions slurm_options;
};

// The environment variable a batch hands its child judges the secret seed in.
inline constexpr const char* kSecretSeedVariable = "HPCJUDGE_SECRET_SEED";

struct BatchJob {
  std::string participant;
  std::string slug;
  std::filesystem::path file;
  std::filesystem::path report;
  std::string refused;  // why the file is not graded (a symlink, a FIFO, ...): its report says so
};

// The class in DIR: the jobs, and a warning for each file or folder skipped.
struct ClassList {
  std::vector<std::string> participants;  // every participant folder, sorted
  std::vector<BatchJob> jobs;
  std::vector<std::string> warnings;
};
ClassList scan_class(const std::filesystem::path& dir, const std::filesystem::path& out);

// Returns the exit status: 0 when every file got a report.
int run_batch(const Paths& paths, const BatchOptions& opt);

}  // namespace hpcjudge
