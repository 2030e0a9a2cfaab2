#include "server/standings.h"

#include <filesystem>
#include <mutex>

#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"
#include "server/context.h"
#include "server/policy.h"

namespace hpcjudge::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path frozen_file(const Context& ctx) { return ctx.store.data() / "frozen" / "leaderboard.json"; }

// The freeze's time where it has passed, else "".
std::string passed_freeze(Context& ctx) {
  const Policy p = ctx.store.policy();
  return frozen(p, utc_now()) ? p.frozen_at : "";
}

json live_model(const Context& ctx) {
  const fs::path results = ctx.store.data() / "results";
  std::error_code ec;
  fs::create_directories(results, ec);
  return leaderboard_model(results);
}

// The kept copy for the freeze at `at`, or a discarded value where none is kept for it.
json kept_copy(const Context& ctx, const std::string& at) {
  const json kept = tolerant::read_file(frozen_file(ctx), 64 << 20);
  if (tolerant::str(kept, "frozen_at") != at || !tolerant::field(kept, "model").is_object())
    return json(json::value_t::discarded);
  return kept["model"];
}

}  // namespace

void keep_frozen_copy(Context& ctx) {
  static std::mutex m;
  const std::string at = passed_freeze(ctx);
  if (at.empty()) return;
  std::lock_guard lock(m);
  if (!kept_copy(ctx, at).is_discarded()) return;
  json model = live_model(ctx);
  model["frozen_at"] = at;
  fs::create_directories(frozen_file(ctx).parent_path());
  write_file_atomically(frozen_file(ctx), json{{"frozen_at", at}, {"model", model}}.dump(
                                              1, ' ', false, json::error_handler_t::replace));
}

json leaderboard_for(Context& ctx, const Account& who) {
  const std::string at = passed_freeze(ctx);
  if (at.empty() || who.role == "admin") {
    json model = live_model(ctx);
    if (!at.empty()) model["frozen_at"] = at;
    return model;
  }
  keep_frozen_copy(ctx);
  json model = kept_copy(ctx, at);
  return model.is_discarded() ? live_model(ctx) : model;
}

}  // namespace hpcjudge::server
