// Run-length coding, exactly: a run is a maximal stretch of equal bytes,
// coded as (byte, length).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace hpcjudge::reference {

struct Runs {
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> lengths;
};

Runs rle_encode(std::span<const uint8_t> raw);
// Writes the runs out; `raw` has exactly the decoded size.
void rle_decode(std::span<const uint8_t> bytes, std::span<const uint32_t> lengths, std::span<uint8_t> raw);

}  // namespace hpcjudge::reference
