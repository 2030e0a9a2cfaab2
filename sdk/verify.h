// Verifying one call's results against the reference's Expected: what solve()
// returned (where it returns a count) and every output buffer, float outputs
// within the problem's tolerance and integer outputs exactly, each over the
// elements the reference says are checked. The judge runs this in its own
// process on the buffers the call left in the arena.
#pragma once
#include <cstdint>
#include <string>

#include "sdk/problem.h"

namespace hpcjudge {

struct Verification {
  bool ok = true;
  std::string message;  // the first wrong thing: the return value, or the first mismatches of a buffer
  std::string summary;  // the same, concise, for a student (sdk/checker.h summarize)
  double max_abs = 0, max_rel = 0;
};

Verification verify_outputs(const Problem& p, const Case& c, const Buffers& bufs, const Expected& e, int64_t ret);

}  // namespace hpcjudge
