// What every subcommand of the judge shares on its command line: the usage error (exit status 2), parsing with a
// guess for a misspelt option, the problem named by a slug, and the source file checked before it is graded.
#pragma once
#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "sdk/problem.h"
#include "judge/paths.h"

namespace hpcjudge::cli {

// A bad command line: one line on stderr, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses; a help request prints the help (exit 0), a bad command line one line (exit 2).
std::optional<int> parse(CLI::App& app, int argc, char** argv);

// The problem named `slug`; a UsageError with the closest names for an unknown one.
const Problem& find_problem(const std::string& slug);

// problems/<slug>/solution.<ext>
std::filesystem::path default_solution(const Problem& p, const Paths& paths);

// FILE: a regular file (a symbolic link of the judge's user's or root's is followed to one; in a batch's
// participant folder, `folder`, the file itself must be one, inside it), readable, not empty, not too large,
// with the problem's extension. A UsageError saying what is wrong otherwise.
void check_source(const Problem& p, const std::filesystem::path& file, const std::filesystem::path& folder);

}  // namespace hpcjudge::cli
