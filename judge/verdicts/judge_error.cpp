#include "judge/verdicts/judge_error.h"

#include <cstdio>

namespace hpcjudge {

Verdict crash_verdict(const CallOutcome& o) { return o.judge_fault ? Verdict::JE : Verdict::RE; }

Verdict failed_compile_verdict(const CallOutcome* launch) {
  return launch && launch->judge_fault ? Verdict::JE : Verdict::CE;
}

std::optional<std::string> unresolved_timing(double median_s, size_t runs, double subtracted_s) {
  if (runs == 0 || median_s > 0) return std::nullopt;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "the judge could not time this case here: half or more of its %zu timed calls took no longer than the "
                "judge's round trip to the runner (%.1f us), so its median is 0 once that is taken off (another "
                "process on the device or CPU?); not a verdict on the file: grade it again",
                runs, subtracted_s * 1e6);
  return std::string(buf);
}

}  // namespace hpcjudge
