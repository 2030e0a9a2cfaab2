// Tokens and secrets (libsodium). A token is "hj_" and 32 random bytes in URL-safe base64 without padding (46
// characters); the server keeps only its BLAKE2b-256 hash (hex), looked up by that hash and compared in constant
// time, so a copy of the database signs no one in.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace hpcjudge::server {

inline constexpr const char* kTokenPrefix = "hj_";

// A new token: "hj_" + 43 URL-safe base64 characters of 32 random bytes. Throws std::runtime_error where libsodium
// cannot start.
std::string new_token();

// The token's stored form: BLAKE2b-256 (crypto_generichash) of its bytes, 64 lowercase hex digits.
std::string token_hash(const std::string& token);

// Whether two hashes are the same, in time that depends only on their length (sodium_memcmp).
bool same_hash(const std::string& a, const std::string& b);

// 32 random bytes as URL-safe base64 (43 characters): a key for CSRF tokens, session cookies and the like.
std::string random_secret();

// Bytes as standard base64 with padding (a CSP hash, a file sent over JSON), and back: nullopt where `text` is not
// base64. Any bytes go through unchanged, valid UTF-8 or not.
std::string base64(std::string_view bytes);
std::optional<std::string> from_base64(std::string_view text);

}  // namespace hpcjudge::server
