// CSRF protection of the pages' forms: every POST form carries a token that only this server could have made for
// this browser's session, and a POST whose token does not match is refused (403) before it does anything.
//
// The token is the keyed BLAKE2b (libsodium's crypto_generichash) of the session token under a secret kept in
// DATA/csrf.key (32 random bytes, made on first start, mode 0600), in hex; it is compared in constant time
// (sodium_memcmp). A cross-site page can neither read it (same-origin policy) nor compute it (the key). Before
// sign-in there is no session: the sign-in form is keyed on a random pre-session cookie instead (double submit).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace httplib {
struct Request;
}

namespace hpcjudge::server {

class Csrf {
 public:
  // Reads DATA/csrf.key, or makes it (throws std::runtime_error when it can do neither).
  explicit Csrf(const std::filesystem::path& data);
  // The token of a session (64 hex digits).
  std::string token(const std::string& session) const;
  // Whether `given` is the token of `session` (constant time; false for an empty session).
  bool check(const std::string& session, const std::string& given) const;

 private:
  unsigned char key_[32];
};

// 32 random bytes in hex (libsodium's randombytes): a pre-session cookie's value, a nonce.
std::string random_hex();

// The value of cookie `name` in the request's Cookie header(s), if it is there.
std::optional<std::string> cookie(const httplib::Request& req, const std::string& name);

}  // namespace hpcjudge::server
