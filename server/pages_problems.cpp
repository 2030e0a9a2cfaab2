// The problems, their statements (English and Chinese), and the leaderboard page.
#include <httplib.h>

#include "judge/classroom/leaderboard_html.h"
#include "judge/files.h"
#include "judge/reports/text.h"
#include "judge/statements/statements.h"
#include "sdk/problem.h"
#include "server/markdown.h"
#include "server/pages_internal.h"
#include "server/standings.h"

namespace hpcjudge::server {
namespace {

using httplib::Request;
using httplib::Response;

constexpr size_t kStatementMaxBytes = 1 << 20;

std::string points(double p) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", p);
  return b;
}

void problems_page(Pages& p, const Session& s, Response& res) {
  std::string body = "<table id=\"problems\"><tr><th>problem</th><th>title</th><th>kind</th><th>points</th></tr>\n";
  for (const Problem* problem : Registry::all()) {
    const ProblemInfo& i = problem->info();
    if (!p.ctx.serves(i.slug)) continue;
    body += "<tr><td><a href=\"/problems/" + markup_escape(i.slug) + "\">" + markup_escape(i.slug) + "</a></td><td>" +
            markup_escape(i.title) + "</td><td>" + kind_name(i.kind) + "</td><td>" + points(i.points.total()) +
            "</td></tr>\n";
  }
  send_page(res, layout("Problems", s.viewer(), body + "</table>\n"));
}

// The submit form of one problem (or, with `slug` empty, a choice of the served problems).
std::string submit_form(Pages& p, const Session& s, const std::string& slug) {
  std::string h = "<form method=\"post\" action=\"/submit\" enctype=\"multipart/form-data\" id=\"submit-form\">" +
                  csrf_field(s.csrf);
  if (!slug.empty()) {
    h += "<input type=\"hidden\" name=\"problem\" value=\"" + markup_escape(slug) + "\">";
  } else {
    h += "<label>problem <select name=\"problem\" id=\"problem\">";
    for (const Problem* problem : Registry::all())
      if (p.ctx.serves(problem->info().slug))
        h += "<option>" + markup_escape(problem->info().slug) + "</option>";
    h += "</select></label> ";
  }
  return h + "<label>file <input type=\"file\" name=\"file\" id=\"file\" accept=\".cpp,.cu,.cc,.cxx\" required>"
             "</label> <button type=\"submit\" id=\"submit\">submit</button></form>\n";
}

std::string statement(Pages& p, const std::string& slug, const StatementLanguage& lang) {
  std::filesystem::path file = p.ctx.paths.problem_dir(slug) / lang.readme;
  std::string text;
  try {
    text = read_regular_file(file, kStatementMaxBytes);
  } catch (const std::exception&) {
    return "<p class=\"note\">No statement in this language (" + markup_escape(lang.readme) + ").</p>";
  }
  return markdown_html(text);
}

void problem_page(Pages& p, const Session& s, const std::string& slug, Response& res) {
  const Problem* problem = Registry::find(slug);
  if (!problem || !p.ctx.serves(slug))
    return send_message(res, 404, "Not found", "No such problem on this server.", s.viewer());
  const ProblemInfo& i = problem->info();
  std::string body = "<p>" + std::string(kind_name(i.kind)) + " · " + points(i.points.total()) + " points (" +
                     points(i.points.correctness) + " for correctness, " + points(i.points.performance) +
                     " for performance) · submit a <code>." + markup_escape(i.source_ext) + "</code> file</p>\n" +
                     submit_form(p, s, slug) + "<p>Statement: ";
  for (const StatementLanguage& lang : statement_languages())
    body += "<a href=\"#statement-" + lang.code + "\">" + (lang.code == "en" ? "English" : "中文") + "</a> ";
  body += "</p>\n";
  for (const StatementLanguage& lang : statement_languages())
    body += "<article class=\"statement\" id=\"statement-" + lang.code + "\" lang=\"" + lang.code + "\">" +
            statement(p, slug, lang) + "</article>\n";
  send_page(res, layout(i.slug + " — " + i.title, s.viewer(), body));
}

// The leaderboard page's own document with the pages' navigation and sign-out form put at the top of its body, and
// where the board is frozen, since when (`frozen`: for a participant, the board as it stood then; for an admin, live).
std::string with_navigation(std::string board, const Session& s, const std::string& frozen) {
  std::string nav = "<style>.hj-nav form { display: inline; }</style>\n<div class=\"hj-nav\"><a href=\"/\">hpcjudge</a>"
                    " · <a href=\"/problems\">Problems</a> · <a href=\"/submissions\">Submissions</a> · "
                    "<a href=\"/leaderboard\">Leaderboard</a>" +
                    std::string(s.admin() ? " · <a href=\"/admin\">Admin</a>" : "") + " · signed in as " +
                    markup_escape(s.account.name) + " <form method=\"post\" action=\"/logout\">" +
                    csrf_field(s.csrf) + "<button type=\"submit\" id=\"sign-out\">sign out</button></form></div>\n";
  if (!frozen.empty())
    nav += "<p id=\"frozen\"><strong>Frozen at " + markup_escape(frozen) + "</strong>: " +
           (s.admin() ? "participants see the board as it stood then; this is the live one."
                      : "the board as it stood then; later grades show once it is unfrozen.") + "</p>\n";
  size_t body = board.find("<body>");
  if (body != std::string::npos) board.insert(body + 6, "\n" + nav);
  return board;
}

void leaderboard_page(Pages& p, const Session& s, Response& res) {
  nlohmann::json model = leaderboard_for(p.ctx, s.account);
  std::string frozen;
  if (model.is_object() && model.contains("frozen_at") && model["frozen_at"].is_string())
    frozen = model["frozen_at"].get<std::string>();
  send_page(res, with_navigation(leaderboard_html(model), s, frozen));
}

}  // namespace

void add_problem_pages(httplib::Server& http, Pages& p) {
  http.Get("/problems", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res)) problems_page(p, *s, res);
  });
  http.Get(R"(/problems/([a-z0-9][a-z0-9-]*))", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res)) problem_page(p, *s, req.matches[1], res);
  });
}

void add_leaderboard_page(httplib::Server& http, Pages& p) {
  http.Get("/leaderboard", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res)) leaderboard_page(p, *s, res);
  });
}

// The submit form is shared with the submissions page (pages_submissions.cpp).
std::string submit_form_html(Pages& p, const Session& s, const std::string& slug) { return submit_form(p, s, slug); }

}  // namespace hpcjudge::server
