#include "server/csrf.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <httplib.h>

#include <cstring>
#include <stdexcept>

namespace hpcjudge::server {
namespace fs = std::filesystem;

namespace {

std::string hex(const unsigned char* bytes, size_t n) {
  std::string out(2 * n + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

// Reads exactly n bytes of `file` into `out`; false when it is missing or of another size.
bool read_key(const fs::path& file, unsigned char* out, size_t n) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t got = ::read(fd, out, n + 1);
  ::close(fd);
  return got == static_cast<ssize_t>(n);
}

// Makes the key file (0600, fsynced) unless another server made it first (O_EXCL), then reads what is there.
void make_key(const fs::path& file, unsigned char* key, size_t n) {
  randombytes_buf(key, n);
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    bool ok = ::write(fd, key, n) == static_cast<ssize_t>(n) && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok) {
      fs::remove(file);
      throw std::runtime_error("cannot write " + file.string() + ": " + std::strerror(errno));
    }
    return;
  }
  if (errno != EEXIST || !read_key(file, key, n))
    throw std::runtime_error("cannot make " + file.string() + ": " + std::strerror(errno));
}

}  // namespace

Csrf::Csrf(const fs::path& data) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
  fs::path file = data / "csrf.key";
  if (!read_key(file, key_, sizeof key_)) make_key(file, key_, sizeof key_);
}

std::string Csrf::token(const std::string& session) const {
  unsigned char mac[32];
  crypto_generichash(mac, sizeof mac, reinterpret_cast<const unsigned char*>(session.data()), session.size(), key_,
                     sizeof key_);
  return hex(mac, sizeof mac);
}

bool Csrf::check(const std::string& session, const std::string& given) const {
  if (session.empty()) return false;
  std::string want = token(session);
  return given.size() == want.size() && sodium_memcmp(given.data(), want.data(), want.size()) == 0;
}

std::string random_hex() {
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  return hex(bytes, sizeof bytes);
}

std::optional<std::string> cookie(const httplib::Request& req, const std::string& name) {
  auto range = req.headers.equal_range("Cookie");
  for (auto it = range.first; it != range.second; ++it) {
    const std::string& h = it->second;
    size_t pos = 0;
    while (pos < h.size()) {
      size_t end = h.find(';', pos);
      if (end == std::string::npos) end = h.size();
      size_t b = h.find_first_not_of(' ', pos);
      size_t eq = h.find('=', b);
      if (b < end && eq < end && h.compare(b, eq - b, name) == 0 && eq - b == name.size())
        return h.substr(eq + 1, end - eq - 1);
      pos = end + 1;
    }
  }
  return std::nullopt;
}

}  // namespace hpcjudge::server
