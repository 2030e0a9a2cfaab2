// What the run-length problems (rle-compress, rle-decompress) share: exact
// checking, the byte alphabets of their generators, and their info.
#pragma once
#include <cstdint>
#include <string>

#include "sdk/problem.h"

namespace hpcjudge {

inline constexpr const char* kRleExactWhy =
    "Exact: run-length coding is integer work with one right answer. The return value must equal the reference's, "
    "and every checked byte and length must be equal; no tolerance applies.";

// The block-boundaries tests' run lengths, over and over: just under, at and past 1024, and past 4096.
inline constexpr uint32_t kBoundaryRuns[] = {1023, 1024, 1025, 4097};

// The extreme-bytes tests: 0x00, 0xFF and negative chars.
inline constexpr uint8_t kExtremeBytes[] = {0x00, 0xFF, 0x80, 0x81, 0xFE};

// The mean run length in a generator name "runs:MEAN".
inline double rle_mean(const std::string& gen) { return std::stod(gen.substr(gen.find(':') + 1)); }

inline ProblemInfo rle_info(std::string slug, std::string title, BenchTarget target,
                            std::vector<std::string> generators) {
  return {.slug = std::move(slug),
          .title = std::move(title),
          .kind = Kind::GPU,
          .source_ext = "cu",
          .points = {.correctness = 40, .performance = 60},
          .tolerance_why = kRleExactWhy,
          .workspace_per_input_byte = 16,
          .generators = std::move(generators),
          .bench_targets = {std::move(target)},
          // Under CPU emulation up to about 10^6 bytes: the baseline's Kogge-Stone scan of 10^6 flags costs
          // about 4 s there; the 4-million and 16-million-byte tests would take the tests past a minute.
          .emulation_max_bytes = 4e6};
}

}  // namespace hpcjudge
