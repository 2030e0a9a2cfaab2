#include "server/remote_worker.h"

#include <httplib.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <regex>
#include <thread>

#include "judge/files.h"
#include "judge/reports/text.h"
#include "server/tokens.h"

namespace hpcjudge::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void say(const std::string& text) { std::fprintf(stderr, "judge worker: %s\n", terminal_safe(text).c_str()); }

// The server, one call at a time (the grading thread and the heartbeat share it).
class Api {
 public:
  explicit Api(const RemoteWorkerOptions& opt) : cli_(opt.server) {
    cli_.set_bearer_token_auth(opt.token);
    cli_.set_connection_timeout(10);
    cli_.set_read_timeout(60);
    cli_.set_write_timeout(60);
  }
  // The reply's status and JSON body (status -1: no answer; the body then holds the error's name).
  std::pair<int, json> post(const std::string& path, const json& body) {
    std::lock_guard lock(m_);
    const httplib::Result r = cli_.Post(path, body.dump(-1, ' ', false, json::error_handler_t::replace),
                                        "application/json");
    if (!r) return {-1, json{{"error", httplib::to_string(r.error())}}};
    return {r->status, r->body.empty() ? json::object() : json::parse(r->body, nullptr, false)};
  }

 private:
  std::mutex m_;
  httplib::Client cli_;
};

std::string error_of(const std::pair<int, json>& reply) {
  const json& b = reply.second;
  const std::string e = b.is_object() && b.contains("error") && b["error"].is_string() ? b["error"].get<std::string>()
                                                                                       : "";
  return (reply.first < 0 ? "no answer" : "HTTP " + std::to_string(reply.first)) + (e.empty() ? "" : ": " + e);
}

// The job's file as <slug>.<ext> in `folder`: the extension the upload had (letters only), the name the slug.
fs::path write_job_file(const json& job, const fs::path& folder) {
  const std::string slug = job.at("problem"), ext = fs::path(job.at("filename").get<std::string>()).extension();
  if (!std::regex_match(slug, std::regex("[a-z0-9][a-z0-9-]{0,63}")) || !std::regex_match(ext, std::regex(R"(\.[A-Za-z]{1,8})")))
    throw std::invalid_argument("the server sent a job named '" + slug + ext + "'");
  const fs::path file = folder / (slug + ext);
  const std::optional<std::string> bytes = from_base64(job.at("source_base64").get<std::string>());
  if (!bytes) throw std::invalid_argument("the server sent a job whose file is not base64");
  std::ofstream out(file, std::ios::binary);
  out << *bytes;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
  return file;
}

// Re-posts the job's current state every `every` until destroyed: the lease's heartbeat.
class Heartbeat {
 public:
  Heartbeat(Api& api, int64_t id, std::chrono::seconds every)
      : thread_([this, &api, id, every](std::stop_token stop) {
          std::mutex m;
          std::unique_lock lock(m);
          std::condition_variable_any cv;
          while (!stop.stop_requested()) {
            cv.wait_for(lock, stop, every, [] { return false; });
            if (!stop.stop_requested()) api.post("/api/worker/" + std::to_string(id) + "/state", {{"state", state()}});
          }
        }) {}
  void set(const std::string& s) {
    std::lock_guard lock(m_);
    state_ = s;
  }

 private:
  std::string state() {
    std::lock_guard lock(m_);
    return state_;
  }
  std::mutex m_;
  std::string state_ = "compiling";
  std::jthread thread_;  // last: stopped and joined first
};

// Grades one claimed job and posts its result (or gives it back).
void grade_job(const Paths& paths, const RemoteWorkerOptions& opt, Api& api, const json& job, std::stop_token stop) {
  const int64_t id = job.at("id");
  const std::string at = "/api/worker/" + std::to_string(id);
  const TempDir folder(fs::perms::owner_all);  // the job's file, for this user alone
  GraderOptions g = opt.grader;
  g.bench = job.value("bench", true);
  g.hide.insert(g.hide.begin(), folder.path);
  GradeRequest req{job.at("problem"), write_job_file(job, folder.path), job.value("participant", std::string()),
                   std::nullopt, opt.device, {}, "remote:" + opt.name};
  if (job.contains("seed_secret")) req.secret_seed = std::stoull(job["seed_secret"].get<std::string>());
  Graded r;
  {
    Heartbeat beat(api, id, std::chrono::seconds(std::max(1, job.value("lease_s", 180) / 6)));
    r = grade_submission(paths, g, req, [&](const std::string& state) {
      beat.set(state);
      api.post(at + "/state", {{"state", state}});
    }, stop);
  }
  const auto reply = r.finished ? api.post(at + "/result", {{"report", r.report}, {"text", r.text}})
                                : api.post(at + "/lost", {{"why", r.why}});
  if (reply.first != 200) throw std::runtime_error("job " + std::to_string(id) + ": " + error_of(reply));
  say("job " + std::to_string(id) + " (" + req.slug + "): " +
      (r.finished ? r.report.value("verdict", std::string("?")) : "given back: " + r.why));
}

// One claim and, where a job came, its grade. False on an error (told).
bool claim_and_grade(const Paths& paths, const RemoteWorkerOptions& opt, Api& api, std::stop_token stop,
                     bool& got) {
  got = false;
  const auto reply = api.post("/api/worker/claim", {{"worker", opt.name}, {"kinds", opt.kinds}});
  if (reply.first == 204) return true;
  if (reply.first != 200 || !reply.second.is_object()) return say("claim: " + error_of(reply)), false;
  got = true;
  try {
    grade_job(paths, opt, api, reply.second, stop);
    return true;
  } catch (const std::exception& e) {
    say(e.what());
    if (reply.second.contains("id"))
      api.post("/api/worker/" + std::to_string(reply.second["id"].get<int64_t>()) + "/lost",
               {{"why", std::string("the worker failed: ") + e.what()}});
    return false;
  }
}

}  // namespace

int run_remote_worker(const Paths& paths, const RemoteWorkerOptions& given, std::stop_token stop) {
  RemoteWorkerOptions opt = given;
  if (opt.name.empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    opt.name = std::string(host) + "-gpu" + std::to_string(opt.device);
  }
  Api api(opt);
  say("grading for " + opt.server + " as " + opt.name);
  std::mutex m;
  std::condition_variable_any cv;
  while (!stop.stop_requested()) {
    bool got = false;
    const bool ok = claim_and_grade(paths, opt, api, stop, got);
    if (opt.once) return ok ? 0 : 1;
    if (got && ok) continue;  // the queue may hold more: claim again at once
    std::unique_lock lock(m);
    cv.wait_for(lock, stop, std::chrono::duration<double>(opt.poll_s), [] { return false; });
  }
  return 0;
}

}  // namespace hpcjudge::server
