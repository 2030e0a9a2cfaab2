// The pages' pieces that need no server (server/csrf.h, markdown.h, report_html.h, page_layout.h): CSRF tokens,
// the statements' Markdown, a report as HTML and the Content-Security-Policy, each with text that tries to escape.
#include <sodium.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

#include <httplib.h>

#include "judge/files.h"
#include "server/csrf.h"
#include "server/markdown.h"
#include "server/page_layout.h"
#include "server/report_html.h"

namespace fs = std::filesystem;
using namespace hpcjudge::server;
using Catch::Matchers::ContainsSubstring;

namespace {

// A folder under TMPDIR for this user alone, removed at the end.
struct TempDir : hpcjudge::TempDir {
  TempDir() : hpcjudge::TempDir(fs::perms::owner_all) {}
};

}  // namespace

TEST_CASE("a CSRF token is the session's own, under this server's key", "[server][pages]") {
  TempDir d;
  Csrf csrf(d.path);
  const std::string t = csrf.token("hj_session-one");
  CHECK(t.size() == 64);
  CHECK(csrf.check("hj_session-one", t));
  CHECK_FALSE(csrf.check("hj_session-two", t));           // another session's token
  CHECK_FALSE(csrf.check("hj_session-one", ""));          // none
  CHECK_FALSE(csrf.check("hj_session-one", t.substr(1)));  // cut
  std::string flipped = t;
  flipped[10] = flipped[10] == '0' ? '1' : '0';
  CHECK_FALSE(csrf.check("hj_session-one", flipped));
  CHECK_FALSE(csrf.check("", csrf.token("")));  // no session, no valid token
  CHECK((fs::status(d.path / "csrf.key").permissions() & fs::perms::group_read) == fs::perms::none);
  CHECK(Csrf(d.path).token("hj_session-one") == t);  // the key is kept: a restart keeps the forms valid
  TempDir other;
  CHECK(Csrf(other.path).token("hj_session-one") != t);  // another server's key, another token
}

TEST_CASE("a Cookie header's value by name", "[server][pages]") {
  httplib::Request req;
  req.headers.emplace("Cookie", "xhpcjudge_session=no; hpcjudge_session=hj_abc; other=1");
  CHECK(cookie(req, "hpcjudge_session") == "hj_abc");
  CHECK(cookie(req, "other") == "1");
  CHECK_FALSE(cookie(req, "hpcjudge").has_value());
  CHECK_FALSE(cookie(req, "missing").has_value());
}

TEST_CASE("a statement's Markdown: its blocks rendered, every text escaped", "[server][pages]") {
  const std::string html = markdown_html(
      "# Title <script>alert(1)</script>\n\nSome `a<b` and **bold** text\ncontinued.\n\n```cpp\nint x = a < b;\n```\n"
      "- one\n- two <img src=x>\n\n1. first\n\n| a | b |\n|---|---|\n| 1 | <i>2</i> |\n\n"
      "<!-- shared:timing -->\n[safe](https://example.org/?a=1&b=2) [unsafe](javascript:alert) <b>raw</b>\n");
  CHECK_THAT(html, ContainsSubstring("<h1>Title &lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
  CHECK_THAT(html, ContainsSubstring("<p>Some <code>a&lt;b</code> and <strong>bold</strong> text continued.</p>"));
  CHECK_THAT(html, ContainsSubstring("<pre><code>int x = a &lt; b;"));
  CHECK_THAT(html, ContainsSubstring("<ul>\n<li>one</li>\n<li>two &lt;img src=x&gt;</li>\n</ul>"));
  CHECK_THAT(html, ContainsSubstring("<ol>\n<li>first</li>\n</ol>"));
  CHECK_THAT(html, ContainsSubstring("<tr><th>a</th><th>b</th></tr>"));
  CHECK_THAT(html, ContainsSubstring("<td>&lt;i&gt;2&lt;/i&gt;</td>"));
  CHECK_THAT(html,
             ContainsSubstring("<a href=\"https://example.org/?a=1&amp;b=2\" rel=\"noopener noreferrer\">safe</a>"));
  CHECK_THAT(html, !ContainsSubstring("javascript"));
  CHECK_THAT(html, !ContainsSubstring("shared:timing"));
  CHECK_THAT(html, ContainsSubstring("&lt;b&gt;raw&lt;/b&gt;"));
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
}

TEST_CASE("a report as HTML: its parts, its text escaped, mistyped fields tolerated", "[server][pages]") {
  nlohmann::json r = {
      {"problem", "softmax-cpu"}, {"verdict", "WA"}, {"message", "wrong <b>here</b>"}, {"file", "<img src=x>.cpp"},
      {"score", {{"total", 0.0}, {"max", 100.0}, {"correctness", 0.0}, {"performance", 0.0}}},
      {"tests", {{{"name", "<img src=x>"}, {"sizes", "N=1"}, {"verdict", "AC"}, {"seconds", 1e-4}},
                 {{"name", "n2"}, {"sizes", "N=2"}, {"verdict", "WA"}, {"summary", "output[0] expected 1, got <2>"}}}},
      {"bench", {{{"name", "n1M"}, {"verdict", "AC"}, {"median_s", 0.01}, {"fast_median_s", 0.02},
                  {"share", 0.5}, {"side_by_side", "not an array"}}}},
      {"machine", {{"hostname", "gpu-1"}, {"cpu_model", "EPYC"}, {"cores", 16}}},
      {"compile", 42}};
  const std::string html = report_html(r);
  CHECK_THAT(html, ContainsSubstring("<span class=\"verdict bad\">WA</span>"));
  CHECK_THAT(html, ContainsSubstring("wrong &lt;b&gt;here&lt;/b&gt;"));
  CHECK_THAT(html, ContainsSubstring("<td>&lt;img src=x&gt;</td>"));  // a test's name
  CHECK_THAT(html, !ContainsSubstring(".cpp"));                       // the server's copy of the file: not shown
  CHECK_THAT(html, ContainsSubstring("output[0] expected 1, got &lt;2&gt;"));  // the mismatch of the failing test
  CHECK_THAT(html, ContainsSubstring("0.50×"));                            // the median over the fast reference's
  CHECK_THAT(html, ContainsSubstring("50%"));                              // the case's share
  CHECK_THAT(html, ContainsSubstring("0.0 / 100"));
  CHECK_THAT(html, ContainsSubstring("gpu-1"));
  CHECK(html.find("<img") == std::string::npos);
  CHECK(score_text(87.25, 1.5, 100.0) == "87.2 ± 1.5 / 100");
  CHECK(score_text(std::nullopt, std::nullopt, std::nullopt) == "—");
  CHECK_NOTHROW(report_html(nlohmann::json::array()));
}

TEST_CASE("a page's Content-Security-Policy allows its own inline scripts and styles only", "[server][pages]") {
  REQUIRE(sodium_init() >= 0);
  const std::string page = "<html><head><style>p{}</style></head><body><script>go();</script>"
                           "<script type=\"application/json\" id=\"m\">{}</script></body></html>";
  const std::string csp = content_security_policy(page);
  // SHA-256 of "go();" in base64, as a browser computes it.
  unsigned char d[32];
  crypto_hash_sha256(d, reinterpret_cast<const unsigned char*>("go();"), 5);
  char b64[64];
  sodium_bin2base64(b64, sizeof b64, d, sizeof d, sodium_base64_VARIANT_ORIGINAL);
  CHECK_THAT(csp, ContainsSubstring(std::string("script-src 'sha256-") + b64 + "'"));
  CHECK_THAT(csp, ContainsSubstring("default-src 'none'"));
  CHECK_THAT(csp, ContainsSubstring("frame-ancestors 'none'"));
  CHECK_THAT(csp, !ContainsSubstring("unsafe-inline"));
  CHECK_THAT(content_security_policy("<p>no script</p>"), ContainsSubstring("script-src 'none'"));
  Account a{1, "<script>x()</script>", "participant"};
  const std::string framed = layout("<t>", {&a, "tok\"en"}, "<p>body</p>");
  CHECK_THAT(framed, ContainsSubstring("&lt;script&gt;x()&lt;/script&gt;"));
  CHECK_THAT(framed, ContainsSubstring("<title>&lt;t&gt; · hpcjudge</title>"));
  CHECK_THAT(framed, ContainsSubstring("value=\"tok&quot;en\""));
  CHECK_THAT(content_security_policy(framed), ContainsSubstring("script-src 'none'"));
}
