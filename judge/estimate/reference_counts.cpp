#include "judge/estimate/reference_counts.h"

#include "judge/files.h"
#include "judge/grading/compile.h"
#include "judge/grading/laid_case.h"
#include "judge/isolation/sandbox.h"
#include "judge/timing/score.h"
#include "judge/verdicts/outcome.h"
#include "judge/verdicts/time_limit.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

// The counted call in a started runner; its counts, or why none.
ReferenceCounts counted_call(const Problem& p, const Paths& paths, const GradeOptions& opt, Session& s,
                             const Case& c) {
  if (auto bad = failed_call(s.start(60))) return {std::nullopt, "its runner did not start: " + bad->message};
  LaidCase l = lay_out(p, c, s, {.seed = opt.seed, .inputs_cache = paths.cache});
  if (l.failure) return {std::nullopt, l.failure->message};
  p.generate(c, opt.seed, 0, l.buffers());
  prepare(l, s.image());
  const CallOutcome o = s.call(l.sig, l.layout, {.timeout_s = test_call_limit_s(p.info(), true),
                                                 .device_memory_limit = l.device_memory_limit,
                                                 .count_accesses = true});
  if (auto bad = failed_call(o)) return {std::nullopt, bad->message};
  if (!o.emulation_counts) return {std::nullopt, "the emulator returned no counts"};
  return {o.emulation_counts, ""};
}

}  // namespace

ReferenceCounts reference_counts(const Problem& p, const Paths& paths, const GradeOptions& opt,
                                 const SessionOptions& session, const std::string& role, const Case& c,
                                 const std::string& machine_fingerprint) {
  const fs::path src = reference_solution(p, paths, role);
  std::string source;
  try {
    source = read_regular_file(src, kMaxSourceBytes);
  } catch (const std::exception& e) {
    return {std::nullopt, e.what()};
  }
  TempDir dir;
  const CompileResult cr = compile_reference(p, paths, role, source, dir.path,
                                             {.arch = "sm_90", .sandbox = opt.sandbox, .emulate = true, .hidden = opt.hidden,
                                              .source_name = src.string()},
                                             machine_fingerprint);
  if (!cr.ok) return {std::nullopt, "it did not compile: " + cr.message};
  SessionOptions so = session;
  so.library = compiled_library(dir.path);
  so.wrapper.clear();
  so.under_tool = false;
  so.timed_calls = false;
  so.judges_own = true;  // not dumpable: the submission's runner may run beside it as the same user
  so.common_arena = nullptr;
  if (opt.sandbox) so.wrapper = sandbox_wrapper(paths, {.folder = dir.path, .gpu = true, .hidden = opt.hidden});
  Session s(paths, p, so);
  ReferenceCounts r = counted_call(p, paths, opt, s, c);
  s.finish();
  return r;
}

}  // namespace hpcjudge
