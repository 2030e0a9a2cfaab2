// The class folder as a batch reads it: DIR/class.json (the class's problem list), a folder per participant with
// files named by problem slug, what is passed over and why, and a participant's pack checked against its
// manifest.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hpcjudge {

// The hidden folder a problem's canary is graded in, beside the participants' (judge/classroom/setup_checks.h):
// the judge's own, passed over by every class scan.
inline constexpr std::string_view kCanaryFolderPrefix = ".hpcjudge-canary-";

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

}  // namespace hpcjudge
