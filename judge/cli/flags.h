// The options every grading command shares (`judge SLUG`, `all`, `batch`, `profile`), and what they settle after
// parsing: the seed (--seed, --seed-file, or the secret seed a batch hands its child judges), emulation, and the
// tools the flags need.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "judge/grading/grade.h"

namespace hpcjudge::cli {

struct GradingFlags {
  GradeOptions opt;
  bool no_bench = false, no_side_by_side = false;
  bool emulate_on = false, emulate_off = false;
  std::string seed, seed_file;
  std::optional<std::string> secret_seed;  // handed down by a batch (take_secret_seed, judge/cli/main.cpp)
  bool per_file = true;  // one file's options (not a batch's)

  void add_to(CLI::App& app, bool per_file = true);
  // After parsing: the seed file read, the flags checked (a UsageError for a bad one).
  void settle();
  // Without the sandbox the seed file is hidden by Landlock (runner/confine.h); where the kernel has none, says
  // who could read it: the judge's own user (a runner as an ordinary user's), or every user where its mode lets
  // them (a runner as root's, a user of its own).
  void warn_if_seed_in_reach(bool sandbox) const;

 private:
  void check_tools() const;
  void read_seed_file();
};

}  // namespace hpcjudge::cli
