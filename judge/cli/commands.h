// The judge's subcommands, one file each under judge/cli/: each parses its own command line (argv[0] its name)
// and returns the exit status: 0 only on AC (for `all`: every problem AC or SKIP), 1 on any other verdict, 2 on
// bad usage (a UsageError thrown, or the parser's own message).
#pragma once
#include "judge/cli/flags.h"
#include "judge/paths.h"

namespace hpcjudge::cli {

int judge_list(int argc, char** argv, const Paths& paths, GradingFlags& flags);         // list.cpp
int judge_all(int argc, char** argv, const Paths& paths, GradingFlags& flags);          // grade.cpp
int judge_batch(int argc, char** argv, const Paths& paths, GradingFlags& flags);        // batch.cpp
int judge_bench(int argc, char** argv, const Paths& paths, GradingFlags& flags);        // bench.cpp
int judge_leaderboard(int argc, char** argv, const Paths& paths, GradingFlags& flags);  // leaderboard.cpp
int judge_profile(int argc, char** argv, const Paths& paths, GradingFlags& flags);      // profile.cpp
int judge_pack(int argc, char** argv, const Paths& paths, GradingFlags& flags);         // pack.cpp
#ifdef HPCJUDGE_HAVE_SERVER
int judge_serve(int argc, char** argv, const Paths& paths, GradingFlags& flags);   // serve.cpp
int judge_submit(int argc, char** argv, const Paths& paths, GradingFlags& flags);  // submit.cpp
int judge_worker(int argc, char** argv, const Paths& paths, GradingFlags& flags);  // worker.cpp
#endif
// For the problems' authors, not in the students' help (statements.cpp).
int judge_statements(int argc, char** argv, const Paths& paths, GradingFlags& flags);
// `judge SLUG [FILE]`: argv[0] is the judge itself (grade.cpp).
int judge_grade(int argc, char** argv, const Paths& paths, GradingFlags& flags);

}  // namespace hpcjudge::cli
