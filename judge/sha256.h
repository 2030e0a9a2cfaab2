// SHA-256 (FIPS 180-4), for what a report records of what it was graded from
// (the source file, the seed's identity) and what a pack's manifest lists.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace hpcjudge {

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  std::string hex();  // the digest in lower-case hex; the object is spent
 private:
  void block(const unsigned char* p);
  uint32_t h_[8];
  unsigned char buf_[64];
  size_t used_ = 0;
  uint64_t length_ = 0;
};

inline std::string sha256_hex(std::string_view bytes) { return Sha256().update(bytes).hex(); }

}  // namespace hpcjudge
