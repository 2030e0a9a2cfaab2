// The pages' frame: the session of a request, the CSRF check of a POST, sign-in and sign-out.
#include "server/pages.h"

#include <httplib.h>

#include "judge/reports/text.h"
#include "server/pages_internal.h"

namespace hpcjudge::server {
namespace {

using httplib::Request;
using httplib::Response;

constexpr const char* kPresessionCookie = "hpcjudge_presession";

// The sign-in form is keyed on a random pre-session cookie: a cross-site page can neither read nor set it.
std::string presession_key(const std::string& value) { return "presession:" + value; }

std::string cookie_attributes(const Pages& p) {
  return std::string("; Path=/; HttpOnly; SameSite=Strict") + (p.ctx.opt.tls_cert.empty() ? "" : "; Secure");
}

void sign_in_page(Pages& p, const Request& req, Response& res, int status, const std::string& flash) {
  std::string pre = cookie(req, kPresessionCookie).value_or("");
  if (pre.size() != 64) {
    pre = random_hex();
    res.set_header("Set-Cookie", std::string(kPresessionCookie) + "=" + pre + cookie_attributes(p));
  }
  std::string body = flash.empty() ? "" : "<p class=\"flash\" id=\"flash\">" + markup_escape(flash) + "</p>\n";
  body += "<form method=\"post\" action=\"/login\" id=\"sign-in\">" + csrf_field(p.csrf.token(presession_key(pre))) +
          "<p><label>Your token <input type=\"password\" name=\"token\" id=\"token\" size=\"50\" "
          "autocomplete=\"off\" required></label> <button type=\"submit\">sign in</button></p></form>\n"
          "<p class=\"note\">The staff gave you the token (<code>judge serve --add-participant</code>). From a "
          "terminal: <code>judge submit SLUG FILE --server URL --token TOKEN</code>.</p>\n";
  send_page(res, layout("Sign in", {}, body), status);
}

void home_page(const Session& s, Response& res) {
  std::string body = "<p>Signed in as <strong>" + markup_escape(s.account.name) + "</strong>.</p>\n<ul>"
                     "<li><a href=\"/problems\">The problems</a>: statements and a submit form</li>"
                     "<li><a href=\"/submissions\">Your submissions</a> and their reports</li>"
                     "<li><a href=\"/leaderboard\">The leaderboard</a></li>";
  if (s.admin()) body += "<li><a href=\"/admin\">Admin</a>: participants, the queue, rejudge, the contest</li>";
  send_page(res, layout("hpcjudge", s.viewer(), body + "</ul>\n"));
}

void login(Pages& p, const Request& req, Response& res) {
  std::string pre = cookie(req, kPresessionCookie).value_or("");
  if (pre.empty() || !p.csrf.check(presession_key(pre), form_value(req, "csrf")))
    return send_message(res, 403, "Forbidden", "The sign-in form has expired or did not come from this server.", {});
  std::string token = form_value(req, "token");
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front()))) token.erase(0, 1);
  auto account = token.empty() ? std::nullopt : p.ctx.store.account_by_token(token);
  if (!account || account->role == "worker") return sign_in_page(p, req, res, 401, "That token matches no account.");
  res.set_header("Set-Cookie", std::string(kSessionCookie) + "=" + token + cookie_attributes(p));
  redirect(res, "/problems");
}

void logout(Pages& p, const Request& req, Response& res) {
  if (!p.posted(req, res)) return;
  res.set_header("Set-Cookie", std::string(kSessionCookie) + "=; Max-Age=0" + cookie_attributes(p));
  redirect(res, "/");
}

}  // namespace

std::optional<Session> Pages::session(const Request& req) {
  auto token = cookie(req, kSessionCookie);
  if (!token || token->empty()) return std::nullopt;
  auto account = ctx.store.account_by_token(*token);
  if (!account || account->role == "worker") return std::nullopt;
  return Session{*account, *token, csrf.token(*token)};
}

std::optional<Session> Pages::signed_in(const Request& req, Response& res) {
  auto s = session(req);
  if (!s) redirect(res, "/");
  return s;
}

std::optional<Session> Pages::posted(const Request& req, Response& res, bool admin) {
  auto s = session(req);
  if (!s) {
    send_message(res, 401, "Not signed in", "Sign in first.", {});
    return std::nullopt;
  }
  if (!csrf.check(s->token, form_value(req, "csrf"))) {
    send_message(res, 403, "Forbidden", "This form did not come from this server (no valid CSRF token).",
                 s->viewer());
    return std::nullopt;
  }
  if (admin && !s->admin()) {
    send_message(res, 403, "Forbidden", "Only an admin may do this.", s->viewer());
    return std::nullopt;
  }
  return s;
}

std::string form_value(const Request& req, const std::string& name) {
  if (req.has_param(name.c_str())) return req.get_param_value(name.c_str());
  if (req.has_file(name.c_str())) return req.get_file_value(name.c_str()).content;
  return "";
}

void add_sign_in_pages(httplib::Server& http, Pages& p) {
  http.Get("/", [&p](const Request& req, Response& res) {
    if (auto s = p.session(req)) return home_page(*s, res);
    sign_in_page(p, req, res, 200, "");
  });
  http.Post("/login", [&p](const Request& req, Response& res) { login(p, req, res); });
  http.Post("/logout", [&p](const Request& req, Response& res) { logout(p, req, res); });
}

void add_pages(httplib::Server& http, Context& ctx) {
  auto* pages = new Pages(ctx);  // the routes hold it for as long as the server serves: never freed
  add_sign_in_pages(http, *pages);
  add_problem_pages(http, *pages);
  add_submission_pages(http, *pages);
  add_leaderboard_page(http, *pages);
  add_admin_pages(http, *pages);
}

}  // namespace hpcjudge::server
