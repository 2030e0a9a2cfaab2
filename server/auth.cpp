#include "server/auth.h"

#include <httplib.h>

#include <string_view>

namespace hpcjudge::server {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of cookie `name` in a Cookie header ("a=1; hpcjudge_session=hj_..."), empty when absent.
std::string cookie(const std::string& header, std::string_view name) {
  std::string_view rest = header;
  while (!rest.empty()) {
    const size_t semi = rest.find(';');
    const std::string_view pair = trim(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos && trim(pair.substr(0, eq)) == name) return std::string(trim(pair.substr(eq + 1)));
  }
  return "";
}

bool has_role(const std::string& roles, const std::string& role) {
  size_t start = 0;
  while (start <= roles.size()) {
    const size_t comma = roles.find(',', start);
    const size_t end = comma == std::string::npos ? roles.size() : comma;
    if (roles.compare(start, end - start, role) == 0 && end - start == role.size()) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

}  // namespace

std::string request_token(const httplib::Request& req) {
  if (req.has_header("Authorization")) {
    const std::string h = req.get_header_value("Authorization");
    constexpr std::string_view kBearer = "Bearer ";
    if (h.size() > kBearer.size() && h.compare(0, kBearer.size(), kBearer) == 0)
      return std::string(trim(std::string_view(h).substr(kBearer.size())));
    return "";
  }
  return req.has_header("Cookie") ? cookie(req.get_header_value("Cookie"), "hpcjudge_session") : "";
}

std::optional<Account> authenticate(const httplib::Request& req, Store& store) {
  const std::string token = request_token(req);
  if (token.empty()) return std::nullopt;
  return store.account_by_token(token);
}

std::optional<Account> require(const httplib::Request& req, httplib::Response& res, Store& store,
                               const std::string& roles) {
  // The session cookie goes with every request the browser makes, a cross-site form's too: through the API it reads
  // (the pages' live updates), and only a Bearer token changes anything (the pages' own forms carry a CSRF token).
  if (req.method != "GET" && req.method != "HEAD" && !req.has_header("Authorization") && req.has_header("Cookie")) {
    json_error(res, 403, "a change through the API needs Authorization: Bearer TOKEN, not the session cookie");
    return std::nullopt;
  }
  std::optional<Account> who = authenticate(req, store);
  if (!who) {
    res.set_header("WWW-Authenticate", "Bearer");
    json_error(res, 401, "a valid token is needed: Authorization: Bearer TOKEN");
    return std::nullopt;
  }
  if (!has_role(roles, who->role)) {
    json_error(res, 403, "a " + who->role + " account may not do this");
    return std::nullopt;
  }
  return who;
}

void send_json(httplib::Response& res, const nlohmann::json& j, int status) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

void json_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, nlohmann::json{{"error", message}}, status);
}

}  // namespace hpcjudge::server
