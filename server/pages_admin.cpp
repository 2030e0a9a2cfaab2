// The admin page: participants and their tokens, the queue, rejudge, freeze, the contest window and the counting
// rule, the final round, the exports and the audit log. Every action is a POST form (CSRF-checked, admins only),
// written to the audit log with who did it, then answered with a redirect back to /admin?done=WHAT (a fixed
// message per WHAT, never text from the request), except a new token, which is shown on the answer's page once.
#include <httplib.h>

#include <regex>

#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/pages_internal.h"
#include "server/policy.h"
#include "server/report_html.h"

namespace hpcjudge::server {
namespace {

using httplib::Request;
using httplib::Response;

std::string esc(std::string_view s) { return markup_escape(s); }
std::string num(int64_t n) { return std::to_string(n); }

// A POST form to /admin/ACTION with one submit button and the hidden fields given (name, value).
std::string button(const Session& s, const std::string& action, const std::string& label,
                   std::initializer_list<std::pair<const char*, std::string>> fields = {}) {
  std::string h = "<form class=\"inline\" method=\"post\" action=\"/admin/" + action + "\">" + csrf_field(s.csrf);
  for (const auto& [name, value] : fields)
    h += std::string("<input type=\"hidden\" name=\"") + name + "\" value=\"" + esc(value) + "\">";
  return h + "<button type=\"submit\">" + esc(label) + "</button></form>";
}

std::string participants_section(Pages& p, const Session& s) {
  std::string h = "<section id=\"participants\"><h2>Participants and tokens</h2><form method=\"post\" "
                  "action=\"/admin/participants\">" + csrf_field(s.csrf) +
                  "<label>name <input name=\"name\" id=\"new-name\" maxlength=\"64\" required></label> "
                  "<label>role <select name=\"role\"><option>participant</option><option>worker</option></select>"
                  "</label> <button type=\"submit\" id=\"add\">add (shows the token once)</button></form>\n"
                  "<table><tr><th>name</th><th>role</th><th></th></tr>\n";
  for (const Account& a : p.ctx.store.accounts())
    h += "<tr><td>" + esc(a.name) + "</td><td>" + esc(a.role) + "</td><td>" +
         button(s, "token", "new token (the old one stops working)", {{"account", num(a.id)}}) + "</td></tr>\n";
  return h + "</table></section>\n";
}

std::string queue_section(Pages& p, const Session& s) {
  std::string h = "<section id=\"queue\"><h2>Queue and rejudge</h2><table><tr><th>#</th><th>participant</th>"
                  "<th>problem</th><th>round</th><th>state</th><th>attempts</th><th>worker</th><th>submitted</th>"
                  "</tr>\n";
  std::vector<Submission> queue = p.ctx.store.queue();
  for (const Submission& q : queue)
    h += "<tr><td><a href=\"/submissions/" + num(q.id) + "\">#" + num(q.id) + "</a></td><td>" + esc(q.participant) +
         "</td><td>" + esc(q.problem) + "</td><td>" + esc(q.round) + "</td><td>" + esc(q.state) + "</td><td>" +
         num(q.attempts) + "</td><td>" + esc(q.worker) + "</td><td>" + esc(q.created_at) + "</td></tr>\n";
  if (queue.empty()) h += "<tr><td colspan=\"8\">nothing queued or being graded</td></tr>\n";
  h += "</table>\n<form class=\"inline\" method=\"post\" action=\"/admin/rejudge\" id=\"rejudge-one\">" +
       csrf_field(s.csrf) + "<label>submission # <input name=\"id\" id=\"rejudge-id\" size=\"6\" "
       "inputmode=\"numeric\" required></label> <button type=\"submit\">rejudge it</button></form> · "
       "<form class=\"inline\" method=\"post\" action=\"/admin/rejudge\">" + csrf_field(s.csrf) +
       "<label>problem <select name=\"problem\">";
  for (const Problem* problem : Registry::all())
    if (p.ctx.serves(problem->info().slug)) h += "<option>" + esc(problem->info().slug) + "</option>";
  return h + "</select></label> <button type=\"submit\">rejudge every submission of it</button></form> · " +
         button(s, "rejudge", "rejudge every counting submission", {{"all", "true"}}) + "</section>\n";
}

std::string contest_section(Pages& p, const Session& s) {
  Policy pol = p.ctx.store.policy();
  auto field = [](const char* name, const std::string& value, const char* hint) {
    return std::string("<tr><th>") + name + "</th><td><input name=\"" + name + "\" value=\"" + esc(value) +
           "\" size=\"24\"> <span class=\"note\">" + hint + "</span></td></tr>\n";
  };
  std::string h = "<section id=\"contest\"><h2>Contest</h2><div id=\"freeze\">Leaderboard: " +
                  (pol.frozen_at.empty() ? std::string("live") : "frozen at " + esc(pol.frozen_at)) + " " +
                  button(s, "freeze", "freeze now", {{"to", "freeze"}}) + " " +
                  button(s, "freeze", "unfreeze", {{"to", "unfreeze"}}) + "</div>\n<form method=\"post\" "
                  "action=\"/admin/policy\" id=\"policy\">" + csrf_field(s.csrf) + "<table>" +
                  field("opens_at", pol.opens_at, "UTC, 2026-12-07T09:00:00Z; empty: open") +
                  field("closes_at", pol.closes_at, "UTC; empty: never closes") +
                  field("max_upload_bytes", num(pol.max_upload_bytes), "bytes") +
                  field("in_flight", num(pol.in_flight), "a participant's ungraded submissions, at most") +
                  field("per_hour", num(pol.per_hour), "a participant's uploads an hour, at most") +
                  "<tr><th>counts</th><td><select name=\"counts\"><option" +
                  (pol.counts == "last" ? " selected" : "") + ">last</option><option" +
                  (pol.counts == "best" ? " selected" : "") + ">best</option></select> <span class=\"note\">which "
                  "submission counts on the leaderboard</span></td></tr></table><button type=\"submit\">save</button>"
                  "</form>\n<div>" + button(s, "final", "start the final round (secret seed)") +
                  " <span class=\"note\">"
                  "every participant's counting submission graded again with the secret seed; kept apart</span></div>";
  h += "<p>Exports: ";
  for (const char* round : {"public", "final"})
    for (const char* format : {"csv", "gradescope", "junit"})
      h += std::string("<a href=\"/api/admin/export/") + format + "?round=" + round + "\">" + format + " (" + round +
           ")</a> ";
  return h + "</p></section>\n";
}

std::string audit_section(Pages& p) {
  std::string h = "<section id=\"audit\"><h2>Audit log</h2><table><tr><th>at</th><th>who</th><th>action</th>"
                  "<th>detail</th></tr>\n";
  for (const nlohmann::json& e : p.ctx.store.audit_log(100))
    h += "<tr><td>" + esc(e.value("at", "")) + "</td><td>" + esc(e.value("actor", "")) + "</td><td>" +
         esc(e.value("action", "")) + "</td><td>" + esc(e.value("detail", "")) + "</td></tr>\n";
  return h + "</table></section>\n";
}

// What a redirect's ?done= says (fixed text: nothing of the request is shown).
std::string done_message(const Request& req) {
  static const std::map<std::string, std::string> kDone = {
      {"rejudge", "Queued again."}, {"nothing", "Nothing to rejudge there."}, {"freeze", "The leaderboard is frozen."},
      {"unfreeze", "The leaderboard is live."}, {"policy", "The contest's settings are saved."},
      {"final", "The final round is queued."}};
  auto it = kDone.find(req.get_param_value("done"));
  return it == kDone.end() ? "" : "<p class=\"flash\" id=\"flash\">" + it->second + "</p>\n";
}

void admin_page(Pages& p, const Session& s, const Request& req, Response& res) {
  if (!s.admin()) return send_message(res, 403, "Forbidden", "The admin page is for admins.", s.viewer());
  send_page(res, layout("Admin", s.viewer(),
                        done_message(req) + participants_section(p, s) + queue_section(p, s) + contest_section(p, s) +
                            audit_section(p)));
}

void token_page(const Session& s, Response& res, const std::string& name, const std::string& token) {
  send_page(res, layout("Token of " + name, s.viewer(),
                        "<p>The token of <strong>" + esc(name) + "</strong>, shown this once (only its hash is "
                        "kept): hand it to them.</p><p class=\"token\" id=\"new-token\">" + esc(token) +
                        "</p><p><a href=\"/admin\">back to the admin page</a></p>\n"));
}

void add_account_action(Pages& p, const Session& s, const Request& req, Response& res) {
  std::string name = form_value(req, "name"), role = form_value(req, "role");
  if (role.empty()) role = "participant";
  if (role != "participant" && role != "worker")
    return send_message(res, 400, "Not added", "The role is participant or worker.", s.viewer());
  try {
    std::string token = p.ctx.store.add_account(name, role);
    p.ctx.store.audit(s.account.name, "add " + role, name);
    token_page(s, res, name, token);
  } catch (const std::invalid_argument& e) {
    send_message(res, 400, "Not added", e.what(), s.viewer());
  }
}

void new_token_action(Pages& p, const Session& s, const Request& req, Response& res) {
  std::string id = form_value(req, "account");
  for (const Account& a : p.ctx.store.accounts())
    if (num(a.id) == id) {
      std::string token = p.ctx.store.new_token(a.id);
      p.ctx.store.audit(s.account.name, "new token", a.name);
      return token_page(s, res, a.name, token);
    }
  send_message(res, 404, "Not found", "No such account.", s.viewer());
}

void rejudge_action(Pages& p, const Session& s, const Request& req, Response& res) {
  std::string id = form_value(req, "id"), problem = form_value(req, "problem");
  int queued = 0;
  std::string what;
  if (!id.empty()) {
    if (!std::regex_match(id, std::regex(R"(#?\d{1,18})")))
      return send_message(res, 400, "Not queued", "A submission is named by its number.", s.viewer());
    if (id[0] == '#') id.erase(0, 1);
    queued = p.ctx.store.rejudge(std::stoll(id));
    what = "submission " + id;
  } else if (!problem.empty()) {
    queued = p.ctx.store.rejudge_problem(problem);
    what = "problem " + problem;
  } else if (form_value(req, "all") == "true") {
    queued = p.ctx.store.rejudge_all();
    what = "all";
  } else {
    return send_message(res, 400, "Not queued", "Name a submission, a problem, or all.", s.viewer());
  }
  p.ctx.store.audit(s.account.name, "rejudge", what + ": " + std::to_string(queued) + " queued");
  p.ctx.notify();
  redirect(res, queued > 0 ? "/admin?done=rejudge" : "/admin?done=nothing");
}

void freeze_action(Pages& p, const Session& s, const Request& req, Response& res) {
  bool freeze = form_value(req, "to") == "freeze";
  Policy pol = p.ctx.store.policy();
  pol.frozen_at = freeze ? utc_now() : "";
  p.ctx.store.set_policy(pol);
  p.ctx.store.audit(s.account.name, freeze ? "freeze" : "unfreeze", pol.frozen_at);
  redirect(res, freeze ? "/admin?done=freeze" : "/admin?done=unfreeze");
}

// A time of the contest window: empty (no bound), or a UTC time as parse_utc reads it, written as utc_now() does.
std::optional<std::string> window_time(const std::string& t) {
  if (t.empty()) return t;
  auto when = parse_utc(t);
  if (!when) return std::nullopt;
  return format_utc(*when);
}

void policy_action(Pages& p, const Session& s, const Request& req, Response& res) {
  Policy pol = p.ctx.store.policy();
  auto opens = window_time(form_value(req, "opens_at")), closes = window_time(form_value(req, "closes_at"));
  if (!opens || !closes)
    return send_message(res, 400, "Not saved", "Write a time as 2026-12-07T09:00:00Z (UTC), or leave it empty.",
                        s.viewer());
  try {
    pol.max_upload_bytes = std::stoll(form_value(req, "max_upload_bytes"));
    pol.in_flight = std::stoi(form_value(req, "in_flight"));
    pol.per_hour = std::stoi(form_value(req, "per_hour"));
  } catch (const std::exception&) {
    return send_message(res, 400, "Not saved", "The limits are whole numbers.", s.viewer());
  }
  if (pol.max_upload_bytes < 1 || pol.in_flight < 1 || pol.per_hour < 1)
    return send_message(res, 400, "Not saved", "Each limit is at least 1.", s.viewer());
  pol.opens_at = *opens;
  pol.closes_at = *closes;
  pol.counts = form_value(req, "counts") == "best" ? "best" : "last";
  p.ctx.store.set_policy(pol);
  p.ctx.store.audit(s.account.name, "policy", pol.to_json().dump());
  redirect(res, "/admin?done=policy");
}

void final_action(Pages& p, const Session& s, Response& res) {
  int queued = p.ctx.store.start_final_round();
  p.ctx.store.audit(s.account.name, "final round", std::to_string(queued) + " queued");
  p.ctx.notify();
  redirect(res, "/admin?done=final");
}

// POST /admin/ACTION: the session an admin's with a valid CSRF token, then the action.
template <typename Action>
void admin_post(httplib::Server& http, Pages& p, const std::string& action, Action act) {
  http.Post("/admin/" + action, [&p, act](const Request& req, Response& res) {
    if (auto s = p.posted(req, res, true)) act(p, *s, req, res);
  });
}

}  // namespace

void add_admin_pages(httplib::Server& http, Pages& p) {
  http.Get("/admin", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res)) admin_page(p, *s, req, res);
  });
  admin_post(http, p, "participants", add_account_action);
  admin_post(http, p, "token", new_token_action);
  admin_post(http, p, "rejudge", rejudge_action);
  admin_post(http, p, "freeze", freeze_action);
  admin_post(http, p, "policy", policy_action);
  admin_post(http, p, "final",
             [](Pages& p, const Session& s, const Request&, Response& res) { final_action(p, s, res); });
}

}  // namespace hpcjudge::server
