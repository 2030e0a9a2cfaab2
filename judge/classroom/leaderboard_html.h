// The leaderboard as one self-contained HTML page (inline CSS, JS and SVG; no
// network), rendered from the leaderboard model that `judge batch` builds:
//
//   { "title", "generated_at", "machines": [str],
//     "problems": [ {"slug", "title", "kind", "max"} ],
//     "participants": [ {"name", "rank" (null when unranked), "unranked", "unranked_why", "total", "max",
//                        "results": { slug: {"verdict", "score", "max", "plus_minus", "noisy", "noise",
//                                            "emulated", "message", "reason", "graded_at", "machine",
//                                            "bench": [ {"name", "sizes", "median_s", "baseline_s", "fast_s",
//                                                        "ratio_to_fast", "share"} ]} } } ] }
//
// A case's bar is coloured by its "share" of the performance points (the score's own measure), a JE result
// reads "judge error" with its cause and no points, an unranked participant shows why in the rank column.
//
// Participants are shown in the model's order (already ranked). Missing or
// mistyped fields are tolerated (shown as blank or "—"), never thrown on;
// invalid UTF-8 is replaced with U+FFFD. The model is also embedded, verbatim,
// as <script type="application/json" id="model"> with '<', '>' and '&' written
// as \u003c, \u003e, \u0026 so no string in it can close the element.
//
// The page's table sorts on a click on a column header. `?selftest=<column>`
// (a problem slug, "participant", "rank" or "total") clicks that header after
// load and writes "order: a|b|...\nerrors: N" into <pre id="selftest-result">;
// tests/leaderboard/browser_test.sh drives it in headless Chromium.
#pragma once
#include "protocol/json.h"
#include <string>

namespace hpcjudge {

std::string leaderboard_html(const nlohmann::json& model);

}  // namespace hpcjudge
