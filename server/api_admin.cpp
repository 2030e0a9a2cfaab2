#include "server/api_admin.h"

#include <httplib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "judge/reports/tolerant_json.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/exports.h"

namespace hpcjudge::server {

namespace {

namespace fs = std::filesystem;
using httplib::Request;
using httplib::Response;
using nlohmann::json;

// The request's JSON object; a discarded value (and 400 set) where the body is not one.
json body_object(const Request& req, Response& res) {
  json j = json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    json_error(res, 400, "the body must be a JSON object");
    return json(json::value_t::discarded);
  }
  return j;
}

// An admin route: `act` runs for an admin only, with the account and the response.
template <typename Act>
httplib::Server::Handler admin(Context& ctx, Act act) {
  return [&ctx, act](const Request& req, Response& res) {
    if (const auto who = require(req, res, ctx.store, "admin")) act(*who, req, res);
  };
}

// The results folder of ?round=public|final (DATA/results, DATA/final); empty (and 400 set) for another round.
fs::path round_folder(Context& ctx, const Request& req, Response& res) {
  const std::string round = req.has_param("round") ? req.get_param_value("round") : "public";
  if (round != "public" && round != "final") {
    json_error(res, 400, "round is public or final");
    return {};
  }
  const fs::path dir = ctx.store.data() / (round == "public" ? "results" : "final");
  fs::create_directories(dir);
  return dir;
}

// GET /api/admin/export/{csv,gradescope,junit}?round=public|final[&participant=NAME] (server/exports.h).
void export_route(Context& ctx, const std::string& format, const Request& req, Response& res) {
  const fs::path dir = round_folder(ctx, req, res);
  if (dir.empty()) return;
  const std::string who = req.has_param("participant") ? req.get_param_value("participant") : "";
  const std::string name = "hpcjudge-" + dir.filename().string();
  if (format == "csv") {
    res.set_content(export_csv(dir), "text/csv; charset=utf-8");
    res.set_header("Content-Disposition", "attachment; filename=\"" + name + ".csv\"");
  } else if (format == "gradescope") {
    send_json(res, export_gradescope(dir, who));
    res.set_header("Content-Disposition", "attachment; filename=\"" + name + "-gradescope.json\"");
  } else {
    res.set_content(export_junit(dir, who), "application/xml; charset=utf-8");
    res.set_header("Content-Disposition", "attachment; filename=\"" + name + "-junit.xml\"");
  }
}

void add_account_routes(httplib::Server& http, Context& ctx) {
  http.Get("/api/admin/participants", admin(ctx, [&ctx](const Account&, const Request&, Response& res) {
    json list = json::array();
    for (const Account& a : ctx.store.accounts()) list.push_back({{"id", a.id}, {"name", a.name}, {"role", a.role}});
    send_json(res, list);
  }));
  // {"name", "role": "participant" (the default) | "worker"} -> {"name", "token"}: the token shown this once.
  http.Post("/api/admin/participants", admin(ctx, [&ctx](const Account& who, const Request& req, Response& res) {
    const json j = body_object(req, res);
    if (j.is_discarded()) return;
    const json& r = tolerant::field(j, "role");
    const std::string name = tolerant::str(j, "name");
    const std::string role = r.is_null() ? "participant" : r.is_string() ? r.get<std::string>() : "";
    if (role != "participant" && role != "worker") return json_error(res, 400, "role is participant or worker");
    try {
      const std::string token = ctx.store.add_account(name, role);
      ctx.store.audit(who.name, "add " + role, name);
      send_json(res, {{"name", name}, {"token", token}});
    } catch (const std::invalid_argument& e) {
      json_error(res, 400, e.what());
    }
  }));
}

// POST /api/admin/rejudge: {"id"} | {"problem"} | {"all": true} -> {"queued"}.
void rejudge(Context& ctx, const Account& who, const Request& req, Response& res) {
  const json j = body_object(req, res);
  if (j.is_discarded()) return;
  int queued = 0;
  std::string what;
  if (j.contains("id") && j["id"].is_number_integer()) {
    queued = ctx.store.rejudge(j["id"].get<int64_t>());
    what = "submission " + std::to_string(j["id"].get<int64_t>());
  } else if (j.contains("problem") && j["problem"].is_string()) {
    queued = ctx.store.rejudge_problem(j["problem"].get<std::string>());
    what = "problem " + j["problem"].get<std::string>();
  } else if (j.value("all", json(false)) == json(true)) {
    queued = ctx.store.rejudge_all();
    what = "all";
  } else {
    return json_error(res, 400, "name one submission {\"id\"}, a problem {\"problem\"} or {\"all\": true}");
  }
  ctx.store.audit(who.name, "rejudge", what + ": " + std::to_string(queued) + " queued");
  ctx.notify();
  send_json(res, {{"queued", queued}});
}

// POST /api/admin/policy: the fields given replace the policy's; the policy now.
void set_policy(Context& ctx, const Account& who, const Request& req, Response& res) {
  const json j = body_object(req, res);
  if (j.is_discarded()) return;
  json merged = ctx.store.policy().to_json();
  merged.update(j);
  try {
    ctx.store.set_policy(Policy::from_json(merged));
  } catch (const std::exception& e) {  // a field of the wrong type or value
    return json_error(res, 400, std::string("not a policy: ") + e.what());
  }
  ctx.store.audit(who.name, "policy", j.dump(-1, ' ', false, json::error_handler_t::replace));
  send_json(res, ctx.store.policy().to_json());
}

void add_course_routes(httplib::Server& http, Context& ctx) {
  http.Post("/api/admin/rejudge", admin(ctx, [&ctx](const Account& who, const Request& req, Response& res) {
    rejudge(ctx, who, req, res);
  }));
  http.Get("/api/admin/policy", admin(ctx, [&ctx](const Account&, const Request&, Response& res) {
    send_json(res, ctx.store.policy().to_json());
  }));
  http.Post("/api/admin/policy", admin(ctx, [&ctx](const Account& who, const Request& req, Response& res) {
    set_policy(ctx, who, req, res);
  }));
  http.Post("/api/admin/final", admin(ctx, [&ctx](const Account& who, const Request&, Response& res) {
    if (ctx.opt.seed_file.empty())
      return json_error(res, 409, "the final round needs the secret seed: start judge serve with --seed-file");
    const int queued = ctx.store.start_final_round();
    ctx.store.audit(who.name, "final round", std::to_string(queued) + " queued");
    ctx.notify();
    send_json(res, {{"queued", queued}});
  }));
}

void add_view_routes(httplib::Server& http, Context& ctx) {
  http.Get("/api/admin/queue", admin(ctx, [&ctx](const Account&, const Request&, Response& res) {
    json list = json::array();
    for (const Submission& s : ctx.store.queue())
      list.push_back({{"id", s.id}, {"participant", s.participant}, {"problem", s.problem}, {"state", s.state},
                      {"round", s.round}, {"worker", s.worker}, {"attempts", s.attempts},
                      {"created_at", s.created_at}, {"queue_position", ctx.store.queue_position(s.id)}});
    send_json(res, list);
  }));
  http.Get("/api/admin/audit", admin(ctx, [&ctx](const Account&, const Request&, Response& res) {
    send_json(res, ctx.store.audit_log());
  }));
  http.Get(R"(/api/admin/export/(csv|gradescope|junit))",
           admin(ctx, [&ctx](const Account&, const Request& req, Response& res) {
             export_route(ctx, req.matches[1].str(), req, res);
           }));
}

}  // namespace

void add_admin_api(httplib::Server& http, Context& ctx) {
  add_account_routes(http, ctx);
  add_course_routes(http, ctx);
  add_view_routes(http, ctx);
}

}  // namespace hpcjudge::server
