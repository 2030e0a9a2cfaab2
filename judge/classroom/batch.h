// Grading a whole class: `judge batch DIR`. DIR holds one folder per
// participant (the folder's name is the participant), each with solution
// files named by problem slug (softmax-cpu.cpp, vector-add.cu, ...). Every
// file is graded by its own child judge process, so a submission that
// crashes, hangs or floods its output costs only its own verdict. Reports go
// to RESULTS/<participant>/<slug>.json as they finish; then the leaderboard.
//
// A report is kept only while it is current: its record (judge/reports/record.h)
// is what this batch would grade the file from, and it is not a SKIP that this
// machine can run. Every other file is regraded, and the batch says why; a report
// whose source is gone is removed, and listed. A noisy grade (the machine was busy while it was timed: its
// score's "noise") is graded once more at the end of the batch, and the batch says which stay noisy. RESULTS/batch.json keeps the class's
// problem list, what was not graded and the packs' checks, for the leaderboard.
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

// DIR/class.json, the class's own file: {"problems": ["softmax-cpu", "matmul-cpu"]}.
// Returns its problem list (empty without the file); throws std::runtime_error naming
// the file for one that is not such an object or names an unknown problem.
std::vector<std::string> read_class_file(const std::filesystem::path& dir);

struct BatchJob {
  std::string participant;
  std::string slug;
  std::filesystem::path file;
  std::filesystem::path report;
  std::string refused;  // why the file is not graded (a symlink, a FIFO, ...): its report says so
};

// A file or folder of the class that is no one's graded submission: the leaderboard's
// "not graded" section lists it.
struct NotGraded {
  std::string participant;  // "" for something at the top of DIR
  std::string file;         // its name
  std::string reason;
};

// The class in DIR: the jobs, what is not graded, and a warning for each file or folder skipped.
struct ClassList {
  std::vector<std::string> participants;  // every participant folder, sorted
  std::vector<BatchJob> jobs;
  std::vector<NotGraded> not_graded;
  std::vector<std::string> warnings;
};
// `problems`: the class's problem list (empty: any problem).
ClassList scan_class(const std::filesystem::path& dir, const std::filesystem::path& out,
                     const std::vector<std::string>& problems = {});

// A participant's pack (their folder holds the manifest.json `judge pack` writes):
// "" when every graded file is the one its manifest lists (SHA-256) and the pack was
// made by this judge's version; else one line saying what does not match.
std::string check_pack(const std::filesystem::path& folder, const std::vector<BatchJob>& jobs);

// Before a problem's files are graded, its canary (the fast reference graded as they would be, functional tests
// only); a problem whose canary is neither AC nor SKIP has none of its files graded. Returns the exit status: 0
// when every file got a report and none is JE; 1 when the sandbox cannot start (nothing graded), a canary failed
// or a file got JE.
int run_batch(const Paths& paths, const BatchOptions& opt);

}  // namespace hpcjudge
