// The student's side of submitting: `judge pack [SLUG...] -o FILE` bundles
// the solution files, named by slug, with their latest local reports and a
// manifest (participant, file hashes, judge version), in the layout
// `judge batch` reads: staff unpack many packs into one folder and grade it.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "judge/paths.h"

namespace hpcjudge {

struct PackOptions {
  std::vector<std::string> slugs;  // default: every problem judged locally
  std::filesystem::path out;       // FILE.tar.gz
  std::string name;                // the participant; default: git user.name, else $USER
};

// Returns a summary line, after a "warning: ..." line for each report left out because
// it is of another version of its solution (a report that could not be saved leaves
// the older one behind); throws std::runtime_error with a one-line reason.
std::string make_pack(const Paths& paths, const PackOptions& opt);

// Saves a report as the latest local one of its problem (what pack bundles).
// Returns "" when saved, else a warning naming the file, the reason and the fix
// (a folder owned by root after `sudo make judge`: sudo chown -R "$USER" ...).
std::string save_local_report(const Paths& paths, const std::string& slug, const std::string& json_text);

}  // namespace hpcjudge
