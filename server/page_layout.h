// What every page of `judge serve` shares: the frame (title, navigation, sign-out form, style sheet) and the way a
// page is sent, with its security headers:
//   Content-Security-Policy: default-src 'none'; scripts and styles only the page's own inline ones, each allowed
//     by its SHA-256 hash (computed from the page as sent, so no other script can run: an injected one has
//     another hash); fetch() only to this server; forms only to this server; no framing, no <base>.
//   X-Content-Type-Options: nosniff; X-Frame-Options: DENY; Referrer-Policy: same-origin (where the server sets
//     none of these itself);
//   Cache-Control: no-store (pages show a participant's own submissions).
#pragma once
#include <string>
#include <string_view>

#include "server/store.h"

namespace httplib {
struct Response;
}

namespace hpcjudge::server {

// Who is viewing the page: no account before sign-in; `csrf` is the token the page's forms carry.
struct Viewer {
  const Account* account = nullptr;
  std::string csrf;
};

// A whole HTML page: `body` (HTML) inside the frame, under the heading `title` (text).
std::string layout(std::string_view title, const Viewer& viewer, const std::string& body);

// The hidden field every POST form carries: <input type="hidden" name="csrf" value="...">.
std::string csrf_field(const std::string& token);

// The Content-Security-Policy of a page: its inline <script> and <style> elements' hashes.
std::string content_security_policy(const std::string& html);

// Sends `html` with the security headers (any HTML the server sends goes through here).
void send_page(httplib::Response& res, const std::string& html, int status = 200);

// A page that says one thing: "Not found", "Forbidden: ..." (`message` is text).
void send_message(httplib::Response& res, int status, std::string_view title, std::string_view message,
                  const Viewer& viewer);

// 303 See Other to `path` (after a form's POST), with the security headers.
void redirect(httplib::Response& res, const std::string& path);

}  // namespace hpcjudge::server
