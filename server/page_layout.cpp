#include "server/page_layout.h"

#include <sodium.h>

#include <httplib.h>

#include "judge/reports/text.h"
#include "server/tokens.h"

namespace hpcjudge::server {
namespace {

constexpr const char* kStyle = R"(
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
header { background: #1f3a5f; color: #fff; padding: .5em 1.5em; display: flex; gap: 1.2em; align-items: center;
         flex-wrap: wrap; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
header .who { margin-left: auto; opacity: .9; }
header form { display: inline; }
header button { background: none; border: 1px solid #fff8; color: #fff; border-radius: 4px; cursor: pointer; }
main { max-width: 72em; margin: 1.2em auto; padding: 0 1.5em; }
table { border-collapse: collapse; margin: .6em 0; background: #fff; }
th, td { border: 1px solid #d8d8de; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
pre { background: #f0f0f3; padding: .6em; overflow-x: auto; white-space: pre-wrap; }
.terminal { background: #16181d; color: #e6e6e6; }
.verdict { font-weight: 700; padding: 0 .35em; border-radius: 3px; color: #fff; background: #b26b00; }
.verdict.ok { background: #1a7f37; } .verdict.bad { background: #c62828; } .verdict.grey { background: #6b6b75; }
.note, .meta { color: #555; } .flash { background: #fff4cc; padding: .6em; border: 1px solid #e0c95c; }
.token { font-family: monospace; font-size: 1.1em; background: #fff; padding: .3em; border: 1px dashed #888; }
.statement { background: #fff; padding: .2em 1.2em; border: 1px solid #ddd; margin-bottom: 1em; }
form.inline { display: inline; } section { margin-bottom: 1.2em; }
input, select, button { font: inherit; }
)";

// " 'sha256-...'" for the content of every <tag ...>...</tag> element of the page.
std::string element_hashes(const std::string& html, const std::string& tag) {
  std::string out, open = "<" + tag, close = "</" + tag + ">";
  for (size_t pos = html.find(open); pos != std::string::npos; pos = html.find(open, pos)) {
    size_t start = html.find('>', pos);
    if (start == std::string::npos) break;
    size_t end = html.find(close, start);
    if (end == std::string::npos) break;
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(html.data() + start + 1), end - start - 1);
    out += " 'sha256-" + base64(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest)) + "'";
    pos = end;
  }
  return out;
}

// Each header once: where the server already sets one (its default headers), that one stands.
void security_headers(httplib::Response& res) {
  for (const auto& [name, value] : {std::pair{"X-Content-Type-Options", "nosniff"}, {"X-Frame-Options", "DENY"},
                                    {"Referrer-Policy", "same-origin"}, {"Cache-Control", "no-store"}})
    if (!res.has_header(name)) res.set_header(name, value);
}

}  // namespace

std::string csrf_field(const std::string& token) {
  return "<input type=\"hidden\" name=\"csrf\" value=\"" + markup_escape(token) + "\">";
}

std::string layout(std::string_view title, const Viewer& viewer, const std::string& body) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                  markup_escape(title) + " · hpcjudge</title>\n<style>" + kStyle +
                  "</style>\n</head>\n<body>\n<header>";
  h += "<a href=\"/\">hpcjudge</a>";
  if (viewer.account) {
    h += "<a href=\"/problems\">Problems</a><a href=\"/submissions\">Submissions</a>"
         "<a href=\"/leaderboard\">Leaderboard</a>";
    if (viewer.account->role == "admin") h += "<a href=\"/admin\">Admin</a>";
    h += "<span class=\"who\" id=\"who\">" + markup_escape(viewer.account->name) + " (" +
         markup_escape(viewer.account->role) + ")</span><form method=\"post\" action=\"/logout\">" +
         csrf_field(viewer.csrf) + "<button type=\"submit\" id=\"sign-out\">sign out</button></form>";
  }
  h += "</header>\n<main>\n<h1>" + markup_escape(title) + "</h1>\n" + body + "</main>\n</body>\n</html>\n";
  return h;
}

std::string content_security_policy(const std::string& html) {
  std::string scripts = element_hashes(html, "script"), styles = element_hashes(html, "style");
  return "default-src 'none'; script-src" + (scripts.empty() ? std::string(" 'none'") : scripts) + "; style-src" +
         (styles.empty() ? std::string(" 'none'") : styles) +
         "; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
}

void send_page(httplib::Response& res, const std::string& html, int status) {
  security_headers(res);
  res.set_header("Content-Security-Policy", content_security_policy(html));
  res.status = status;
  res.set_content(html, "text/html; charset=utf-8");
}

void send_message(httplib::Response& res, int status, std::string_view title, std::string_view message,
                  const Viewer& viewer) {
  send_page(res, layout(title, viewer, "<p class=\"flash\">" + markup_escape(message) + "</p>\n"), status);
}

void redirect(httplib::Response& res, const std::string& path) {
  security_headers(res);
  res.status = 303;
  res.set_header("Location", path);
}

}  // namespace hpcjudge::server
