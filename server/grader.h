// One submission graded by a child judge, exactly as `judge batch` grades a file (judge/classroom/child_judge.h):
//   judge SLUG FILE --json OUT --progress P --device N --participant-folder DIR --participant-name NAME
//         --hide DATA ... [--no-bench] [--sandbox]
// the secret seed (the final round) in the child's environment, never on its command line; the child on the cores it
// is given (the grading thread's CPU affinity, which the child inherits) and within a time limit. The same grader
// serves the server's own workers (server/workers.h) and `judge worker` on another host (server/remote_worker.h).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "judge/paths.h"
#include "protocol/json.h"

namespace hpcjudge::server {

// How every grade of this server (or worker) is made.
struct GraderOptions {
  bool bench = true;         // false: --no-bench
  bool sandbox = false;      // --sandbox
  bool unisolated = false;   // --unsafe-no-isolation
  bool emulate = true;       // a GPU problem without a usable GPU is emulated, as `judge SLUG FILE` does
  std::vector<std::filesystem::path> hide;  // hidden from the submission: the data folder, the seed file, a token file
  double time_limit_s = 2 * 3600;           // the child judge is killed past this
};

// One grade.
struct GradeRequest {
  std::string slug;
  std::filesystem::path file;          // <slug>.<ext>, a regular file in a folder of its own
  std::string participant;             // the report names it
  std::optional<uint64_t> secret_seed; // the final round's seed
  int device = 0;                      // the CUDA device
  std::vector<int> cores;              // the CPUs the child may run on (empty: this thread's own set)
  std::string worker;                  // who grades: "local:gpu0", "remote:<name>"
};

struct Graded {
  bool finished = false;  // the child judge wrote its report
  // The child's report plus "server": {"worker", "device", "cores"}; where it did not finish, a JE report of the
  // server's own (the judge's fault, never the student's), with "server" too.
  nlohmann::json report;
  std::string text;       // what the child printed: the terminal report a local grade prints
  std::string why;        // where it did not finish: why, one line
};

// Grades `req` in a child judge; on_state("testing" | "timing") as the child reaches each stage. A stop request
// kills the child (not finished, why "the grader was stopped"). Throws only where no child could start.
Graded grade_submission(const Paths& paths, const GraderOptions& opt, const GradeRequest& req,
                        const std::function<void(const std::string&)>& on_state, std::stop_token stop = {});

// The CPUs this thread may run on, ascending.
std::vector<int> thread_cores();

}  // namespace hpcjudge::server
