// Run-length coding, exactly: a run is a maximal stretch of equal bytes,
// coded as (byte, length).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sdk/uninitialized.h"

namespace hpcjudge::reference {

// Every element written by rle_encode: not zeroed first (at 1.8 x 10^8 runs that was 0.9 GB on one core).
struct Runs {
  UninitVector<uint8_t> bytes;
  UninitVector<uint32_t> lengths;
};

Runs rle_encode(std::span<const uint8_t> raw);
// Writes the runs out; `raw` has exactly the decoded size.
void rle_decode(std::span<const uint8_t> bytes, std::span<const uint32_t> lengths, std::span<uint8_t> raw);

}  // namespace hpcjudge::reference
