// The admin page's exports of a results folder (DATA/results, or DATA/final for the secret-seed round), in the
// formats `judge batch` and `judge SLUG FILE` write (judge/classroom/leaderboard.h, judge/reports/course.h).
#pragma once
#include <filesystem>
#include <string>

#include "protocol/json.h"

namespace hpcjudge::server {

// The leaderboard as CSV: leaderboard_csv(leaderboard_model(results)), as RESULTS/leaderboard.csv.
std::string export_csv(const std::filesystem::path& results);

// Gradescope's results.json for each participant (or only `participant`): an object keyed by participant name,
// each value one results.json over their problems: the scores added, the tests of every problem (each named
// "<slug>: <test>"), the outputs joined, "extra_data": {"problems": {slug: that problem's extra_data}}.
nlohmann::json export_gradescope(const std::filesystem::path& results, const std::string& participant = "");

// A JUnit document of every participant's reports (or only `participant`'s, as `judge batch --junit` writes
// RESULTS/<participant>/junit.xml): a <testsuite> per participant and problem, each with its "participant"
// property, ordered by participant, then problem.
std::string export_junit(const std::filesystem::path& results, const std::string& participant = "");

}  // namespace hpcjudge::server
