// What the pages' files share (server/pages.cpp, pages_submissions.cpp, pages_admin.cpp): the signed-in session
// of a request and the checks every page makes.
#pragma once
#include <optional>
#include <string>

#include "server/context.h"
#include "server/csrf.h"
#include "server/page_layout.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace hpcjudge::server {

inline constexpr const char* kSessionCookie = "hpcjudge_session";

struct Session {
  Account account;
  std::string token;  // the cookie's value
  std::string csrf;   // the forms' token for this session
  Viewer viewer() const { return {&account, csrf}; }
  bool admin() const { return account.role == "admin"; }
};

class Pages {
 public:
  explicit Pages(Context& c) : ctx(c), csrf(c.opt.data) {}
  Context& ctx;
  Csrf csrf;

  // The request's session (cookie), or none; a worker's token is none.
  std::optional<Session> session(const httplib::Request& req);
  // For a GET page: the session, else a redirect to sign-in (and none).
  std::optional<Session> signed_in(const httplib::Request& req, httplib::Response& res);
  // For a POST: the session with its CSRF token checked, else 401 (not signed in) or 403 (no or a wrong token)
  // sent, and none. `admin`: an admin's only (403 for others).
  std::optional<Session> posted(const httplib::Request& req, httplib::Response& res, bool admin = false);
};

// A form field of a POST: from a urlencoded body or from a multipart one ("" when absent).
std::string form_value(const httplib::Request& req, const std::string& name);

// The submit form of one problem, or with `slug` empty a choice of the served ones (POST /submit).
std::string submit_form_html(Pages& pages, const Session& s, const std::string& slug);

// The parts of the site, each in its own file.
void add_sign_in_pages(httplib::Server& http, Pages& pages);
void add_problem_pages(httplib::Server& http, Pages& pages);
void add_submission_pages(httplib::Server& http, Pages& pages);
void add_leaderboard_page(httplib::Server& http, Pages& pages);
void add_admin_pages(httplib::Server& http, Pages& pages);

}  // namespace hpcjudge::server
