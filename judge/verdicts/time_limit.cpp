#include "judge/verdicts/time_limit.h"

#include <cstdio>

namespace hpcjudge {

double test_call_limit_s(const ProblemInfo& info, bool emulated) {
  return info.test_time_limit_s * (emulated ? kEmulatedTimeScale : 1);
}

double tests_limit_s(const ProblemInfo& info, bool emulated) {
  return info.tests_time_limit_s * (emulated ? kEmulatedTimeScale : 1);
}

std::optional<std::string> tests_past_limit(double spent_s, const std::string& test, const ProblemInfo& info,
                                            bool emulated) {
  const double all_limit = tests_limit_s(info, emulated);
  if (spent_s <= all_limit) return std::nullopt;
  char why[200];
  std::snprintf(why, sizeof why,
                "the functional tests took %.3g s of solve() time up to test %s; the limit for all of them is "
                "%.3g s%s",
                spent_s, test.c_str(), all_limit, emulated ? " (CPU emulation: 4 times the GPU's)" : "");
  return std::string(why);
}

}  // namespace hpcjudge
