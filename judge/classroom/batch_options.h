// What `judge batch` is asked to do (its command line): read by the batch and by each of its steps (the child
// judges, the set-up checks, the kept reports, the noisy regrade), which include this and never batch.h.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/classroom/slurm.h"

namespace hpcjudge {

struct BatchOptions {
  std::filesystem::path dir;
  std::filesystem::path out;
  bool force = false;        // regrade files that already have a report
  // Grade the kept noisy reports again too (a grade of this batch found noisy is graded once more anyway).
  bool regrade_noisy = false;
  bool bench = true;
  bool emulate = true;       // GPU problems without a usable GPU: CPU emulation (false: SKIP, --no-emulate)
  std::string seed_file;     // the staff's secret seed: its file (hidden from submissions; for Slurm tasks)
  std::optional<uint64_t> secret_seed;  // and the seed read from it, handed to child judges in the environment
  bool unisolated = false;   // --unsafe-no-isolation
  std::string participant;   // grade only this one (a Slurm array task); no leaderboard
  bool sandbox = false;      // each child judge runs its submission under bubblewrap
  bool slurm = false;
  SlurmOptions slurm_options;
  // The class's problems (--problems a,b,c, else DIR/class.json's "problems"): only
  // these are graded, and they fix the leaderboard's columns and maximum. Empty: every
  // file named after a problem is graded.
  std::vector<std::string> problems;
  bool junit = false;  // also RESULTS/<participant>/junit.xml, a JUnit report per participant
};

}  // namespace hpcjudge
