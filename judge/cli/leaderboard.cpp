// `judge leaderboard RESULTS`: the leaderboard's files written again from a batch's reports.
#include <cstdio>
#include <filesystem>

#include "judge/classroom/leaderboard.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/reports/text.h"

namespace hpcjudge::cli {

int judge_leaderboard(int argc, char** argv, const Paths&, GradingFlags&) {
  CLI::App app{"Write RESULTS/leaderboard.{html,md,csv,json} from the reports in RESULTS.", "judge leaderboard"};
  std::string results;
  app.add_option("results", results, "the results folder of a batch")->required();
  if (auto rc = parse(app, argc, argv)) return *rc;
  if (!std::filesystem::is_directory(results)) throw UsageError(results + ": no such folder");
  try {
    std::printf("%s\n", terminal_safe(write_leaderboard(results).summary()).c_str());
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  return 0;
}

}  // namespace hpcjudge::cli
