#include "judge/estimate/count_case.h"

#include "judge/grading/laid_case.h"
#include "judge/verdicts/outcome.h"
#include "judge/verdicts/time_limit.h"

namespace hpcjudge {

CaseCounts count_case(const Problem& p, const Paths& paths, const GradeOptions& opt, Session& s, const Case& c) {
  LaidCase l = lay_out(p, c, s, {.seed = opt.seed, .inputs_cache = paths.cache});
  if (l.failure) return {std::nullopt, l.failure->message};
  p.generate(c, opt.seed, 0, l.buffers());
  prepare(l, s.image());
  const CallOutcome o = s.call(l.sig, l.layout, {.timeout_s = kCountedTimeScale * test_call_limit_s(p.info(), true),
                                                 .device_memory_limit = l.device_memory_limit,
                                                 .count_accesses = true});
  if (auto bad = failed_call(o)) return {std::nullopt, bad->message};
  if (!o.emulation_counts) return {std::nullopt, "the emulator returned no counts"};
  return {o.emulation_counts, ""};
}

}  // namespace hpcjudge
