// Who is calling, and how the API answers. The caller is the account of the request's token: from
// `Authorization: Bearer TOKEN` (the API, `judge submit`, `judge worker`) or the pages' session cookie
// `hpcjudge_session` (its value is the token; server/pages.h sets it), looked up by its hash in constant time
// (Store::account_by_token); the token itself is never kept.
#pragma once
#include <optional>
#include <string>

#include "protocol/json.h"
#include "server/store.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace hpcjudge::server {

// The token a request carries: the Bearer token where there is an Authorization header, else the session cookie's
// value; empty when neither.
std::string request_token(const httplib::Request& req);

// The caller's account; nullopt for no token or one that matches none.
std::optional<Account> authenticate(const httplib::Request& req, Store& store);

// The caller's account where its role is one of `roles` (comma-separated, "participant,admin"); otherwise the
// response is set (401 {"error"} with WWW-Authenticate for no valid token, 403 {"error"} for a role that may not)
// and nullopt returned. A request that changes something (not GET or HEAD) must carry its token as Bearer: with
// only the session cookie it is 403 (a cross-site POST carries the cookie; the pages' forms have their own CSRF
// check).
std::optional<Account> require(const httplib::Request& req, httplib::Response& res, Store& store,
                               const std::string& roles);

// `j` as the response's JSON body with `status` (text that is not valid UTF-8 shown as U+FFFD, never a throw).
void send_json(httplib::Response& res, const nlohmann::json& j, int status = 200);
// {"error": message} with `status`.
void json_error(httplib::Response& res, int status, const std::string& message);

}  // namespace hpcjudge::server
