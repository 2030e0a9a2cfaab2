// The student's side of submitting: `judge pack [SLUG | SLUG=FILE ...] -o FILE`
// bundles, for each problem, the file the student last judged (the latest local
// report names it; SLUG=FILE names another), as <slug>.<ext>, with its report when
// the report is of that file as it is now, and a manifest (participant, each file's
// SHA-256 and source, the judge's version), in the layout `judge batch` reads:
// staff unpack many packs into one folder and grade it.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "judge/paths.h"

namespace hpcjudge {

struct PackOptions {
  std::vector<std::string> slugs;  // "slug" or "slug=file"; default: every problem judged locally
  std::filesystem::path out;       // FILE.tar.gz
  std::string name;                // the participant; default: git user.name, else $USER
};

// Returns what was packed (a line per file, then a summary line), after a
// "warning: ..." line for each file packed without its report (changed since, or
// never judged), each starter left as it was given, and each report whose verdict is
// SKIP or not AC. Throws std::runtime_error with a one-line reason, packing nothing,
// when there is nothing to pack: no problem judged or named, a file gone, or only
// untouched starters.
std::string make_pack(const Paths& paths, const PackOptions& opt);

// Saves a report as the latest local one of its problem (the file pack bundles by
// default), and as the last one of its source file, `source_path` (the report's
// absolute path; what pack bundles with that file, whichever was judged later):
// kKeptSourceReports per problem, the most recently judged, each of at most
// kMaxKeptSourceReport bytes. Returns "" when saved, else a warning naming the file,
// the reason and the fix (a folder owned by root after `sudo make judge`: sudo
// chown -R "$USER" ...).
inline constexpr size_t kKeptSourceReports = 32;
inline constexpr size_t kMaxKeptSourceReport = size_t{8} << 20;
std::string save_local_report(const Paths& paths, const std::string& slug, const std::string& source_path,
                              const std::string& json_text);

// Where the last report of `source_path` for problem `slug` is kept.
std::filesystem::path source_report_file(const Paths& paths, const std::string& slug, const std::string& source_path);

// True when `bytes` are problem `slug`'s starter as the repository ships it
// (problems/starters.sha256 lists the starters' SHA-256).
bool is_untouched_starter(const Paths& paths, const std::string& slug, const std::string& bytes);

}  // namespace hpcjudge
