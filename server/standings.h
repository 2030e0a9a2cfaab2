// The leaderboard a caller sees (GET /api/leaderboard, the pages' leaderboard): the model of the public round's
// results folder, DATA/results (judge/classroom/leaderboard.h, as `judge batch` makes it). While the leaderboard
// is frozen (the policy's frozen_at has passed) a participant sees the copy taken at the freeze,
// DATA/frozen/leaderboard.json ({"frozen_at", "model"}), and an admin the live one; the model then carries
// "frozen_at".
#pragma once
#include "protocol/json.h"
#include "server/store.h"

namespace hpcjudge::server {

struct Context;

nlohmann::json leaderboard_for(Context& ctx, const Account& who);

// Takes the frozen copy where the freeze has passed and none is kept for this frozen_at yet. The server calls it
// every second (and leaderboard_for before it answers), so the copy is the board as it stood within a second of
// the freeze.
void keep_frozen_copy(Context& ctx);

}  // namespace hpcjudge::server
