// The HTTP API (server/api.h) but for /api/worker/ (server/worker_api.h): submissions, problems, the leaderboard,
// and the admin's calls, each of which is written to the audit log.
#include "server/api.h"

#include <httplib.h>

#include <filesystem>
#include <string>

#include "judge/files.h"
#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/api_admin.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/policy.h"
#include "server/standings.h"

namespace hpcjudge::server {

namespace {

namespace fs = std::filesystem;
using httplib::Request;
using httplib::Response;
using nlohmann::json;

constexpr const char* kUsers = "participant,admin";

int64_t path_id(const Request& req) { return std::stoll(req.matches[1].str()); }

json row(Store& store, const Submission& s) {
  json j = {{"id", s.id},           {"problem", s.problem},       {"filename", s.filename},
            {"state", s.state},     {"verdict", s.verdict},       {"score", s.score},
            {"plus_minus", nullptr}, {"created_at", s.created_at}, {"round", s.round},
            {"participant", s.participant}};
  if (s.plus_minus) j["plus_minus"] = *s.plus_minus;
  if (s.state != "done") j["queue_position"] = store.queue_position(s.id);
  return j;
}

// The submission the path names, where the caller may see it (its owner, an admin); else 404 set, nullopt.
std::optional<Submission> visible(Context& ctx, const Request& req, Response& res, const Account& who) {
  std::optional<Submission> s = ctx.store.submission(path_id(req));
  if (!s || (who.role != "admin" && s->account != who.id)) {
    json_error(res, 404, "no such submission");
    return std::nullopt;
  }
  return s;
}

// GET /api/submissions/ID: the report (once done) and where the submission stands.
json detail(Context& ctx, const Submission& s) {
  json j = json::object();
  if (s.state == "done") {
    if (auto r = ctx.store.report(s.id); r && r->is_object()) j = *r;
    if (auto t = ctx.store.report_text(s.id)) j["text"] = *t;
    if (!j.contains("verdict")) j["verdict"] = s.verdict;
    if (!j.contains("message")) j["message"] = s.message;
  }
  j["id"] = s.id;
  j["state"] = s.state;
  j["queue_position"] = ctx.store.queue_position(s.id);
  j["participant"] = s.participant;
  j["round"] = s.round;
  return j;
}

// POST /api/submissions (multipart: problem, file).
void post_submission(Context& ctx, const Request& req, Response& res) {
  const auto who = require(req, res, ctx.store, kUsers);
  if (!who) return;
  if (!req.is_multipart_form_data() || !req.has_file("problem") || !req.has_file("file"))
    return json_error(res, 400, "a multipart form with the fields problem and file is needed");
  const std::string slug = req.get_file_value("problem").content;
  const httplib::MultipartFormData file = req.get_file_value("file");
  if (!Registry::find(slug) || !ctx.serves(slug))
    return json_error(res, 400, "no such problem on this server: " + one_line(slug, 64));
  if (file.content.empty()) return json_error(res, 400, "the file is empty");
  if (auto refusal = check_upload(ctx.store, *who, file.content.size(), utc_now())) {
    if (refusal->retry_after > 0) res.set_header("Retry-After", std::to_string(refusal->retry_after));
    json j = {{"error", refusal->message}};
    if (refusal->status == 429) j["retry_after"] = refusal->retry_after;
    return send_json(res, j, refusal->status);
  }
  int64_t id = 0;
  try {
    id = ctx.store.add_submission(who->id, slug, file.filename.empty() ? "upload" : file.filename, file.content);
  } catch (const StoreFull& e) {
    return json_error(res, 503, std::string("the server cannot keep the file now: ") + e.what());
  }
  ctx.notify();
  send_json(res, {{"id", id}, {"queue_position", ctx.store.queue_position(id)}}, 202);
}

void add_submission_routes(httplib::Server& http, Context& ctx) {
  http.Post("/api/submissions", [&ctx](const Request& req, Response& res) { post_submission(ctx, req, res); });
  http.Get("/api/submissions", [&ctx](const Request& req, Response& res) {
    const auto who = require(req, res, ctx.store, kUsers);
    if (!who) return;
    json list = json::array();
    for (const Submission& s : ctx.store.submissions_of(who->id)) list.push_back(row(ctx.store, s));
    send_json(res, list);
  });
  http.Get(R"(/api/submissions/(\d{1,18}))", [&ctx](const Request& req, Response& res) {
    const auto who = require(req, res, ctx.store, kUsers);
    if (!who) return;
    if (const auto s = visible(ctx, req, res, *who)) send_json(res, detail(ctx, *s));
  });
  http.Get(R"(/api/submissions/(\d{1,18})/source)", [&ctx](const Request& req, Response& res) {
    const auto who = require(req, res, ctx.store, kUsers);
    if (!who) return;
    const auto s = visible(ctx, req, res, *who);
    if (!s) return;
    try {
      res.set_content(read_regular_file(s->source, 64 << 20), "text/plain; charset=utf-8");
    } catch (const FileRefused&) {
      json_error(res, 404, "the file is not kept");
    }
  });
}

void add_public_routes(httplib::Server& http, Context& ctx) {
  http.Get("/api/problems", [&ctx](const Request& req, Response& res) {
    if (!require(req, res, ctx.store, kUsers)) return;
    json list = json::array();
    for (const Problem* p : Registry::all()) {
      const ProblemInfo& i = p->info();
      if (ctx.serves(i.slug))
        list.push_back({{"slug", i.slug}, {"title", i.title}, {"kind", kind_name(i.kind)}, {"points", i.points.total()}});
    }
    send_json(res, list);
  });
  http.Get("/api/leaderboard", [&ctx](const Request& req, Response& res) {
    if (const auto who = require(req, res, ctx.store, kUsers)) send_json(res, leaderboard_for(ctx, *who));
  });
  http.Get("/api/whoami", [&ctx](const Request& req, Response& res) {
    if (const auto who = require(req, res, ctx.store, "participant,admin,worker"))
      send_json(res, {{"name", who->name}, {"role", who->role}});
  });
}

}  // namespace

void add_api(httplib::Server& http, Context& ctx) {
  add_submission_routes(http, ctx);
  add_public_routes(http, ctx);
  add_admin_api(http, ctx);
}

}  // namespace hpcjudge::server
