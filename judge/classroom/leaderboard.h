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

// Writes leaderboard.{json,csv,md,html} into `results`; returns the model.
nlohmann::json write_leaderboard(const std::filesystem::path& results);

// The current time as ISO 8601 UTC ("2026-11-30T06:10:00Z").
std::string utc_now();

}  // namespace hpcjudge
