#include "server/tokens.h"

#include <sodium.h>

#include <stdexcept>

namespace hpcjudge::server {

namespace {

void start_sodium() {
  static const int started = sodium_init();  // 0 the first time, 1 after; -1 where it cannot start
  if (started < 0) throw std::runtime_error("libsodium could not start (sodium_init failed)");
}

// 32 bytes of randombytes_buf in URL-safe base64, no padding.
std::string random_base64() {
  start_sodium();
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  char out[sodium_base64_ENCODED_LEN(sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(out, sizeof out, bytes, sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(bytes, sizeof bytes);
  return out;
}

}  // namespace

std::string new_token() { return kTokenPrefix + random_base64(); }

std::string random_secret() { return random_base64(); }

std::string token_hash(const std::string& token) {
  start_sodium();
  unsigned char hash[crypto_generichash_BYTES];  // 32 bytes: BLAKE2b-256
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr,
                     0);
  char hex[2 * sizeof hash + 1];
  sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
  return hex;
}

bool same_hash(const std::string& a, const std::string& b) {
  start_sodium();
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string base64(std::string_view bytes) {
  std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

std::optional<std::string> from_base64(std::string_view text) {
  std::string bytes(text.size() / 4 * 3 + 3, '\0');
  size_t n = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), text.data(), text.size(),
                        nullptr, &n, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0)
    return std::nullopt;
  bytes.resize(n);
  return bytes;
}

}  // namespace hpcjudge::server
