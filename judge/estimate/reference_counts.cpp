#include "judge/estimate/reference_counts.h"

#include <span>

#include "judge/files.h"
#include "judge/paths.h"
#include "judge/reports/tolerant_json.h"
#include "judge/versions.h"
#include "sdk/generators.h"
#include "judge/grading/compile.h"
#include "judge/isolation/sandbox.h"
#include "judge/timing/score.h"
#include "judge/verdicts/outcome.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

// The counted call in a runner started here; its counts, or why none.
ReferenceCounts counted_call(const Problem& p, const Paths& paths, const GradeOptions& opt, Session& s,
                             const Case& c) {
  if (auto bad = failed_call(s.start(60))) return {std::nullopt, "its runner did not start: " + bad->message};
  return count_case(p, paths, opt, s, c);
}

// Where a reference's counts are cached: keyed by everything they follow from (the judge's and the problem's
// versions, the emulator's library, the reference's source, the case and the seed). Counting the fast reference and
// the baseline took 10 of reduction's 12 s emulated grade on the 2-core VM.
fs::path counts_file(const Problem& p, const Paths& paths, const GradeOptions& opt, const std::string& role,
                     const std::string& source, const Case& c) {
  const std::string key = std::string(judge_version()) + '\0' + problem_version(p.info().slug) + '\0' +
                          file_key(paths.runner.parent_path() / "libhpcjudge-emulate.so") + '\0' + source + '\0' +
                          c.name + '\0' + std::to_string(opt.seed);
  const uint64_t h = gen::fnv1a(std::as_bytes(std::span(key.data(), key.size())));
  return paths.cache / "estimate-counts" / (p.info().slug + "-" + role + "-" + hex_key(h) + ".json");
}

std::optional<protocol::EmulationCounts> cached_counts(const fs::path& file) {
  const nlohmann::json j = tolerant::read_file(file, 16 << 20);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    return j.get<protocol::EmulationCounts>();
  } catch (const nlohmann::json::exception&) {  // edited or cut short: counted again
    return std::nullopt;
  }
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
  const fs::path cache = counts_file(p, paths, opt, role, source, c);
  if (auto hit = cached_counts(cache)) return {hit, ""};
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
  if (r.counts) {
    std::error_code ec;
    fs::create_directories(cache.parent_path(), ec);
    write_cache_file(cache, nlohmann::json(*r.counts).dump() + "\n");
  }
  return r;
}

}  // namespace hpcjudge
