// The web pages of `judge serve`: plain server-rendered HTML (server/page_layout.h), one small inline script for
// live updates. Signed in by the token: POST /login sets the cookie hpcjudge_session (its value the token;
// HttpOnly, SameSite=Strict, Secure under TLS), which the API also accepts (server/auth.h), so the pages' script
// polls /api/submissions/ID with it. Every POST form carries a CSRF token (server/csrf.h); a POST without a valid
// one is refused (403) before it does anything.
//
//   /                    sign in (the token), or the signed-in home        POST /login, POST /logout
//   /problems            the served problems: kind, points
//   /problems/SLUG       the statement in English and Chinese (README.md, README.zh-CN.md) and a submit form
//   POST /submit         multipart: csrf, problem, file (the API's checks: server/policy.h) -> /submissions/ID
//   /submissions         the viewer's own, with their state live; a submit form
//   /submissions/ID      the report in full and the terminal text; live until done (the owner's and admins')
//   /submissions/ID/report   that page's report part alone (the live script swaps it in when the grade is done)
//   /leaderboard         the leaderboard page (judge/classroom/leaderboard_html.h) of what the API's
//                        /api/leaderboard gives the viewer (frozen for participants while frozen)
//   /admin               admins: participants and tokens, the queue, rejudge, freeze, the contest window and the
//                        counting rule, the final round, exports, the audit log; POST /admin/ACTION, each audited
// A worker's token does not sign in.
#pragma once

namespace httplib {
class Server;
}

namespace hpcjudge::server {

struct Context;

void add_pages(httplib::Server& http, Context& ctx);

}  // namespace hpcjudge::server
