// What a report was graded from (the report's "graded_from"): a result stays
// current only while every part of it is what this judge would grade from now.
//
//   source_sha256     SHA-256 of the bytes graded ("refused: <why>" for a file the
//                     batch would not grade: a symlink, a FIFO, ...)
//   problem_version   problem_version(slug) (judge/versions.h)
//   judge_version     judge_version()
//   seed_id           seed_identity(seed): a slow salted hash, never the seed itself
//   bench, side_by_side, sandbox, isolated    the options that change a result
//   machine           MachineInfo::fingerprint() of the machine as the problem uses it
//                     (CPU, cores, threads, compiler; and for a GPU problem on a machine
//                     that can run it, the GPU, its driver and CUDA runtime)
//
// `judge batch` computes the record each file would be graded from and regrades a
// file whose report's record differs (differences() names how).
#pragma once
#include <cstdint>
#include "protocol/json.h"
#include <string>
#include <vector>

namespace hpcjudge {

struct GradedFrom {
  std::string source_sha256;
  std::string problem_version;
  std::string judge_version;
  std::string seed_id;
  bool bench = true;
  bool side_by_side = true;  // false: --no-side-by-side (the cached scale alone)
  bool sandbox = false;
  bool isolated = true;  // false: --unsafe-no-isolation
  std::string machine;
  nlohmann::json to_json() const;
  // An empty record (every field "") where `j` is not one.
  static GradedFrom from_json(const nlohmann::json& j);
  bool empty() const { return source_sha256.empty(); }
  // What differs from `now`, one short phrase each ("the source changed", "the seed
  // changed", "graded with timing, now without", ...); empty when the record is current.
  std::vector<std::string> differences(const GradedFrom& now) const;
};

// The seed's identity: 4096 rounds of SHA-256 over a fixed salt and the seed, in hex.
// Two gradings share it exactly when they share the seed; the seed itself is not in
// it (a seed chosen at random, 64 bits, cannot be found from it by trying seeds).
std::string seed_identity(uint64_t seed);

}  // namespace hpcjudge
