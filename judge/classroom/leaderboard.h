// The leaderboard of a results folder (RESULTS/<participant>/<slug>.json, as
// `judge batch` writes them): participants ranked by total score, a column
// per problem, the machine and time of grading, each participant's timings
// against the baseline and fast reference.
#pragma once
#include <filesystem>
#include "protocol/json.h"
#include <string>
#include <vector>

#include "judge/reports/text.h"  // utc_now

namespace hpcjudge {

// The model every format is written from (leaderboard.json). Ranked by total
// score, descending; ties by participant name in byte order, sharing a rank.
// Not ranked (rank null, "unranked" says why, listed after the ranked): a
// participant with a JE result (the judge's own fault: "judge error" and its
// cause, no points, until it is graded again) and one without a submission
// ("no submission"). Each result carries its score's "plus_minus" (the
// interval's half-width), "noisy" with the report's "noise" (the machine was
// busy while it was timed), "emulated" (CUDA run under CPU emulation), and per
// performance case its "share" of the performance points as the score takes
// it (from the ratios to the references timed beside it), which colours its
// bar. "machines" has one entry per machine (host name, CPU and cores), with
// its GPU and compiler as its reports name them, whatever the problem's kind.
// With RESULTS/batch.json: the class's problem list fixes the columns and the
// maximum (else the problems anyone was graded on), "not_graded" lists the files
// and folders no one was graded on, and a participant's "note" says where their
// pack does not match its manifest. Every result carries "reason": its verdict's
// cause in one short line.
nlohmann::json leaderboard_model(const std::filesystem::path& results);

std::string leaderboard_csv(const nlohmann::json& model);
std::string leaderboard_markdown(const nlohmann::json& model);

// The folder of RESULTS a participant's reports go in: the name itself, unless it is one of the judge's own
// (leaderboard.csv, .md, .json, .html, slurm, batch.json) or ends in " (participant)", which gets " (participant)"
// added (a participant named `slurm` has its reports in `slurm (participant)/` and is listed as `slurm`); and a
// name no folder can be as it is (a '/', as in `<b>x</b>` or `../x`, a leading '.', a '%') has those characters
// percent-encoded (%2F, %2E, %25), so that every name is one folder inside RESULTS. participant_of_folder undoes
// it: the name a folder's reports belong to.
std::string results_folder(const std::string& participant);
std::string participant_of_folder(const std::string& folder);

// Cells a spreadsheet and a Markdown viewer show as text, never run: a CSV cell
// that begins with =, +, -, @, a tab or a carriage return gets a ' before it
// (OWASP's rule against formula injection); a Markdown cell has <, >, |, &,
// backslashes and line breaks escaped.
std::string csv_field(const std::string& s);
std::string md_cell(const std::string& s);

// The batch's own record in RESULTS (judge/classroom/batch.h): the class's problem list,
// what was not graded, the packs' checks. A participant of that name has its reports in
// "batch.json (participant)".
inline constexpr const char* kBatchFile = "batch.json";

struct LeaderboardFiles {
  nlohmann::json model;
  std::vector<std::filesystem::path> files;  // every file written
  // "leaderboard of 12 participant(s): R/leaderboard.html, R/leaderboard.md, R/leaderboard.csv, R/leaderboard.json"
  std::string summary() const;
};

// Writes leaderboard.{html,md,csv,json} into `results`.
LeaderboardFiles write_leaderboard(const std::filesystem::path& results);

}  // namespace hpcjudge
