#include "server/worker_api.h"

#include <httplib.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/auth.h"
#include "server/context.h"
#include "server/tokens.h"

namespace hpcjudge::server {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// When each remote worker's job was last heard of.
std::mutex leases_m;
std::map<int64_t, Clock::time_point> leases;

void renew(int64_t id) {
  std::lock_guard lock(leases_m);
  leases[id] = Clock::now();
}

void drop_lease(int64_t id) {
  std::lock_guard lock(leases_m);
  leases.erase(id);
}

bool held_by(const Submission& s, const std::string& account) {
  const std::string mine = remote_holder(account, "");
  return s.state != "queued" && s.state != "done" &&
         (s.worker == mine || s.worker.starts_with(mine + "/"));
}

// The body's JSON object, or a 400 answered.
std::optional<json> body_object(const httplib::Request& req, httplib::Response& res) {
  json j = json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    json_error(res, 400, "the body must be a JSON object");
    return std::nullopt;
  }
  return j;
}

// The job ID of the path, held by the calling worker account; else the response is answered (401/403, 404, 409).
std::optional<Submission> held_job(const httplib::Request& req, httplib::Response& res, Context& ctx) {
  const std::optional<Account> who = require(req, res, ctx.store, "worker");
  if (!who) return std::nullopt;
  const std::optional<Submission> s = ctx.store.submission(std::stoll(req.matches[1]));
  if (!s) return json_error(res, 404, "no such job"), std::nullopt;
  if (!held_by(*s, who->name))
    return json_error(res, 409, "this worker no longer holds job " + std::to_string(s->id) +
                                    " (its lease ran out, or it was given back)"),
           std::nullopt;
  return s;
}

std::string read_source(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw StoreFull("cannot read " + file.string());
  return text.str();
}

struct Kinds {
  Context* ctx;
  bool gpu, cpu;
};

bool accepts_kind(const std::string& slug, void* k) {
  const Kinds& kinds = *static_cast<Kinds*>(k);
  const Problem* p = Registry::find(slug);
  return p && kinds.ctx->serves(slug) && (p->info().kind == Kind::GPU ? kinds.gpu : kinds.cpu);
}

// A claimed job as the worker gets it; nullopt where the server cannot hand it out (given back: lost).
std::optional<json> job_json(Context& ctx, const Submission& s) {
  json j = {{"id", s.id},         {"problem", s.problem}, {"filename", s.source.filename().string()},
            {"round", s.round},   {"participant", s.participant}, {"bench", ctx.opt.bench},
            {"lease_s", ctx.opt.worker_lease_s}};
  if (s.round == "final") {
    if (!ctx.opt.secret_seed) {
      ctx.store.lost(s.id, "the server has no --seed-file for the final round");
      return std::nullopt;
    }
    j["seed_secret"] = std::to_string(*ctx.opt.secret_seed);
  }
  // The file's bytes as they are (base64): a source need not be valid UTF-8, which JSON text would have replaced.
  j["source_base64"] = base64(read_source(s.source));
  return j;
}

void claim(const httplib::Request& req, httplib::Response& res, Context& ctx) {
  const std::optional<Account> who = require(req, res, ctx.store, "worker");
  if (!who) return;
  const std::optional<json> body = body_object(req, res);
  if (!body) return;
  Kinds kinds{&ctx, true, true};
  if (body->contains("kinds") && (*body)["kinds"].is_array()) {
    const json& k = (*body)["kinds"];
    kinds.gpu = std::find(k.begin(), k.end(), "gpu") != k.end();
    kinds.cpu = std::find(k.begin(), k.end(), "cpu") != k.end();
  }
  const std::string name = body->value("worker", std::string());
  if (name.size() > 64 || name.find_first_of("\r\n\t") != std::string::npos)
    return json_error(res, 400, "a worker's name is at most 64 bytes on one line");
  std::optional<Submission> s = ctx.store.claim(remote_holder(who->name, name), accepts_kind, &kinds);
  if (!s) return res.status = 204, void();
  renew(s->id);
  try {
    std::optional<json> job = job_json(ctx, *s);
    if (!job) return drop_lease(s->id), res.status = 204, void();
    send_json(res, *job);
  } catch (const std::exception& e) {
    drop_lease(s->id);
    ctx.store.lost(s->id, std::string("the server could not hand the job out: ") + e.what());
    json_error(res, 503, e.what());
  }
}

void post_state(const httplib::Request& req, httplib::Response& res, Context& ctx) {
  const std::optional<Submission> s = held_job(req, res, ctx);
  if (!s) return;
  const std::optional<json> body = body_object(req, res);
  if (!body) return;
  const std::string state = body->value("state", std::string());
  if (state != "compiling" && state != "testing" && state != "timing")
    return json_error(res, 400, "state must be compiling, testing or timing");
  renew(s->id);
  if (state != s->state) ctx.store.set_state(s->id, state);
  send_json(res, json::object());
}

void post_result(const httplib::Request& req, httplib::Response& res, Context& ctx) {
  const std::optional<Submission> s = held_job(req, res, ctx);
  if (!s) return;
  const std::optional<json> body = body_object(req, res);
  if (!body) return;
  const json& report = (*body)["report"];
  if (!report.is_object() || !report.contains("verdict") || !(*body)["text"].is_string())
    return json_error(res, 400, "a result is {\"report\": the --json report, \"text\": the terminal report}");
  ctx.store.finish(s->id, report, (*body)["text"].get<std::string>());
  drop_lease(s->id);
  send_json(res, json::object());
}

void post_lost(const httplib::Request& req, httplib::Response& res, Context& ctx) {
  const std::optional<Submission> s = held_job(req, res, ctx);
  if (!s) return;
  const std::optional<json> body = body_object(req, res);
  if (!body) return;
  const std::string why = body->value("why", std::string("no reason given"));
  ctx.store.lost(s->id, s->worker + ": " + why.substr(0, 500));
  drop_lease(s->id);
  send_json(res, json::object());
}

}  // namespace

std::string remote_holder(const std::string& account, const std::string& worker) {
  return "remote:" + account + (worker.empty() ? "" : "/" + worker);
}

void add_worker_api(httplib::Server& http, Context& ctx) {
  // Each handler's store errors (disk full, a database error) answer 503, never a lost job; a job no longer held 409.
  const auto guarded = [&ctx](void (*handler)(const httplib::Request&, httplib::Response&, Context&)) {
    return [&ctx, handler](const httplib::Request& req, httplib::Response& res) {
      try {
        handler(req, res, ctx);
      } catch (const std::invalid_argument& e) {  // Store::finish: the job is no longer held
        json_error(res, 409, e.what());
      } catch (const std::exception& e) {
        json_error(res, 503, std::string("the server could not do that: ") + e.what());
      }
    };
  };
  http.Post("/api/worker/claim", guarded(claim));
  http.Post(R"(/api/worker/(\d{1,18})/state)", guarded(post_state));
  http.Post(R"(/api/worker/(\d{1,18})/result)", guarded(post_result));
  http.Post(R"(/api/worker/(\d{1,18})/lost)", guarded(post_lost));
}

void expire_leases(Context& ctx) {
  const auto now = Clock::now();
  const auto lease = std::chrono::seconds(ctx.opt.worker_lease_s);
  std::vector<Submission> expired;
  {
    std::lock_guard lock(leases_m);
    std::map<int64_t, Clock::time_point> kept;
    for (const Submission& s : ctx.store.queue()) {
      if (s.state == "queued" || !s.worker.starts_with("remote:")) continue;
      const auto it = leases.find(s.id);
      const auto seen = it == leases.end() ? now : it->second;
      if (now - seen >= lease) expired.push_back(s);
      else kept[s.id] = seen;
    }
    leases = std::move(kept);
  }
  for (const Submission& s : expired)
    ctx.store.lost(s.id, s.worker + " posted nothing for " + std::to_string(ctx.opt.worker_lease_s) + " s");
}

}  // namespace hpcjudge::server
