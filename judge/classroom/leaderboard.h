// The leaderboard of a results folder (RESULTS/<participant>/<slug>.json, as
// `judge batch` writes them): participants ranked by total score, a column
// per problem, the machine and time of grading, each participant's timings
// against the baseline and fast reference.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace hpcjudge {

// The model every format is written from (leaderboard.json). Ranked by total
// score, descending; ties by participant name in byte order, sharing a rank.
nlohmann::json leaderboard_model(const std::filesystem::path& results);

std::string leaderboard_csv(const nlohmann::json& model);
std::string leaderboard_markdown(const nlohmann::json& model);

// The folder of RESULTS a participant's reports go in: the name itself, unless
// it is one of the judge's own (leaderboard.csv, .md, .json, .html, slurm) or
// ends in " (participant)", which gets " (participant)" added: a participant
// named `slurm` has its reports in `slurm (participant)/` and is listed as `slurm`.
std::string results_folder(const std::string& participant);

// Cells a spreadsheet and a Markdown viewer show as text, never run: a CSV cell
// that begins with =, +, -, @, a tab or a carriage return gets a ' before it
// (OWASP's rule against formula injection); a Markdown cell has <, >, |, &,
// backslashes and line breaks escaped.
std::string csv_field(const std::string& s);
std::string md_cell(const std::string& s);

// Writes leaderboard.{json,csv,md,html} into `results`; returns the model.
nlohmann::json write_leaderboard(const std::filesystem::path& results);

// The current time as ISO 8601 UTC ("2026-11-30T06:10:00Z").
std::string utc_now();

}  // namespace hpcjudge
