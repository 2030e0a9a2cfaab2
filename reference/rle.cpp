#include "rle.h"

#include <cstring>
#include <stdexcept>

namespace hpcjudge::reference {

Runs rle_encode(std::span<const uint8_t> raw) {
  Runs r;
  for (size_t i = 0; i < raw.size();) {
    size_t j = i + 1;
    while (j < raw.size() && raw[j] == raw[i]) ++j;
    r.bytes.push_back(raw[i]);
    r.lengths.push_back(static_cast<uint32_t>(j - i));
    i = j;
  }
  return r;
}

void rle_decode(std::span<const uint8_t> bytes, std::span<const uint32_t> lengths, std::span<uint8_t> raw) {
  size_t at = 0;
  for (size_t k = 0; k < bytes.size(); ++k) {
    if (lengths[k] > raw.size() - at) throw std::logic_error("run-length code longer than its raw size");
    std::memset(raw.data() + at, bytes[k], lengths[k]);
    at += lengths[k];
  }
  if (at != raw.size()) throw std::logic_error("run-length code shorter than its raw size");
}

}  // namespace hpcjudge::reference
