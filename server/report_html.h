// One grade's report as an HTML fragment for the submission's page: what the terminal report says, in tables:
// the verdict and its cause, the score with its ± and parts, the compile (its log where there is one), the
// kernels' resources, each test (the first mismatch of a failing one), the performance table (medians with their
// intervals, the references' medians, the ratios to them and each case's share of the performance points), the
// submission's output, and the machine. Read tolerantly (judge/reports/tolerant_json.h): a missing or mistyped
// field shows as "—", never a throw; every string through markup_escape.
#pragma once
#include <optional>
#include <string>

#include "protocol/json.h"

namespace hpcjudge::server {

std::string report_html(const nlohmann::json& report);

// "<span class=\"verdict v-AC\">AC</span>" (the class colours it: AC green, WA/RE/... red, CE grey, others amber).
std::string verdict_badge(const std::string& verdict);

// "87.3 ± 1.2 / 100" (± only where there is one; "/ max" only where max is known).
std::string score_text(std::optional<double> score, std::optional<double> plus_minus, std::optional<double> max);

}  // namespace hpcjudge::server
