// A batch's set-up checks, before any student's file is graded: whether the sandbox starts here, and each
// problem's canary (its fast reference graded as the class's files are), so that no verdict of theirs is the
// set-up's.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "judge/classroom/batch_options.h"
#include "judge/classroom/class_folder.h"
#include "judge/paths.h"

namespace hpcjudge {

// Whether bubblewrap starts here as a runner starts it (as root: as a user of its own), with the namespaces the
// judge asks for: "" when it does, else its own words (one line).
std::string sandbox_cannot_start();

// What grading without the sandbox gives up, and how to ask for it.
std::string without_sandbox();

// Where the canaries' reports go: RESULTS/.canary, a Slurm task's (--participant) in a folder of its own below
// (the tasks of one array run at once, on other nodes).
std::filesystem::path canary_reports(const BatchOptions& opt);

// Each problem's canary before its files are graded: the fast reference, copied where the class's files are
// (the file's mode and owner), graded by a child judge with the class's options, isolation, hidden paths and
// results folder, functional tests only. Returns, for each problem whose canary is neither AC nor SKIP (a machine
// that cannot run the problem SKIPs its files alike), why, in one line; its report stays in RESULTS/.canary/.
std::map<std::string, std::string> run_canaries(const Paths& paths, const BatchOptions& opt,
                                                const std::vector<BatchJob>& todo);

}  // namespace hpcjudge
