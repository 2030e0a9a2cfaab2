#include "judge/grading/laid_case.h"

#include <algorithm>
#include <cstring>

#include "sdk/bytes.h"
#include "sdk/verify.h"
#include "judge/grading/case_inputs_cache.h"
#include "judge/verdicts/memory_limit.h"

namespace hpcjudge {

Buffers LaidCase::buffers_at(const std::byte* base) const {
  std::vector<BufferView> v;
  for (size_t i = 0; i < sig.buffers.size(); ++i)
    v.push_back({&sig.buffers[i], const_cast<std::byte*>(base) + layout.offset[i]});
  return Buffers(v);
}

namespace {

// Asks the submission's workspace_size() where the signature has a workspace; over the problem's limit is MLE.
std::optional<Checked> size_workspace(const Problem& p, Signature& sig, Session& s) {
  const int w = sig.workspace_index();
  if (w < 0) return std::nullopt;
  std::string call = "workspace_size(";
  for (size_t i = 0; i < sig.workspace_args.size(); ++i) {
    if (i) call += ", ";
    call += std::to_string(sig.workspace_args[i]);
  }
  call += ")";
  const CallOutcome o = s.workspace_size(sig.workspace_args, p.info().test_time_limit_s);
  if (auto bad = failed_call(o)) return Checked{bad->verdict, call + ": " + bad->message};
  const size_t limit = p.workspace_limit(sig);
  const auto asked = static_cast<uint64_t>(o.ret);
  if (auto over = workspace_past_limit(call, asked, limit, p.info())) return Checked{Verdict::MLE, *over};
  sig.buffers[w].count = asked;
  return std::nullopt;
}

// The guard zones and the inputs after a call of `who` (solve() or setup()): RE where one changed.
std::optional<Checked> check_memory(const LaidCase& l, const std::byte* image, const std::byte* result,
                                    const char* who) {
  if (auto g = check_guards(result, l.layout)) return Checked{Verdict::RE, g->describe(l.sig.buffers)};
  for (size_t i = 0; i < l.sig.buffers.size(); ++i) {
    const BufferSpec& b = l.sig.buffers[i];
    if (b.role != Role::In) continue;
    const std::byte* was = image + l.layout.offset[i];
    const std::byte* now = result + l.layout.offset[i];
    if (!parallel_equal(was, now, b.bytes())) {
      size_t at = 0;
      while (was[at] == now[at]) ++at;
      return Checked{Verdict::RE, "input modified: " + b.name + "[" + std::to_string(at / dtype_size(b.type)) +
                                      "] was changed by " + who};
    }
  }
  return std::nullopt;
}

// setup() once for the case, untimed: the per-case inputs in place, the per-call
// ones still their sentinels (no input set is in device memory yet).
std::optional<Checked> call_setup(const Problem& p, LaidCase& l, Session& s, bool rival) {
  for (const BufferView& v : l.views)
    if (v.spec->call_input()) fill_sentinel(v);
  prepare(l, s.image());
  const double limit = p.info().setup_time_limit_s;
  const CallOutcome o = s.call(l.sig, l.layout,
                               {.setup = true,
                                .timeout_s = limit,
                                .device_memory_limit = l.device_memory_limit,
                                .read_back = rival ? ReadBack::None : ReadBack::All});
  if (auto bad = failed_call(o)) return Checked{bad->verdict, bad->message};
  if (rival) return std::nullopt;
  std::optional<Checked> bad = check_memory(l, s.image(), s.result(), "setup()");
  if (bad && bad->message.find("setup()") == std::string::npos) bad->message = "after setup(): " + bad->message;
  return bad;
}

}  // namespace

LaidCase lay_out(const Problem& p, const Case& c, Session& s, const LayOut& how) {
  LaidCase l;
  l.sig = p.signature(c);
  l.failure = size_workspace(p, l.sig, s);
  if (p.info().kind == Kind::GPU) l.device_memory_limit = p.device_memory_limit(c, l.sig);
  l.layout = ArenaLayout::plan(l.sig.buffers);
  s.reserve(l.layout.total);
  for (size_t i = 0; i < l.sig.buffers.size(); ++i) l.views.push_back({&l.sig.buffers[i], s.image() + l.layout.offset[i]});
  if (l.failure) return l;
  Stopwatch step;
  if (how.same_inputs) copy_inputs(*how.same_inputs, l, true);
  else generate_case_inputs(p, c, how.seed, l.buffers(), how.inputs_cache);
  l.inputs_s = step.lap();
  if (l.sig.has_setup()) l.failure = call_setup(p, l, s, how.rival);
  l.setup_s = step.lap();
  return l;
}

LargestLayout largest_layout(const Problem& p, const std::vector<Case>& cases) {
  LargestLayout most;
  for (const Case& c : cases) {
    Signature sig = p.signature(c);
    if (const int w = sig.workspace_index(); w >= 0) sig.buffers[w].count = p.workspace_limit(sig);  // bytes
    const ArenaLayout l = ArenaLayout::plan(sig.buffers);
    most.total = std::max(most.total, l.total);
    most.copied = std::max(most.copied, l.copied);
  }
  return most;
}

void copy_inputs(const LaidCase& from, const LaidCase& to, bool per_case) {
  for (size_t i = 0; i < to.views.size() && i < from.views.size(); ++i)
    if (per_case ? to.sig.buffers[i].case_input() : to.sig.buffers[i].call_input())
      parallel_copy(to.views[i].data, from.views[i].data, to.sig.buffers[i].bytes());
}

void prepare(LaidCase& l, std::byte* image) {
  if (!l.sentinels_laid) {
    for (const auto& v : l.views)
      if (v.spec->role == Role::Out) fill_sentinel(v);
    fill_guards(image, l.layout);
    l.sentinels_laid = true;
  }
  for (const GeneratedScalar& g : l.sig.generated) l.sig.args[g.arg].scalar = l.views[g.buffer].as<const int32_t>()[0];
}

Checked judge_call(const Problem& p, const Case& c, const LaidCase& l, const Against& against, const CallOutcome& o,
                   const std::byte* image, const std::byte* result) {
  if (auto bad = failed_call(o)) return *bad;
  if (auto bad = check_memory(l, image, result, "solve()")) return *bad;
  return check_outputs(p, c, l, against, o, result);
}

Checked check_outputs(const Problem& p, const Case& c, const LaidCase& l, const Against& against,
                      const CallOutcome& o, const std::byte* result) {
  if (auto bad = failed_call(o)) return *bad;
  const Buffers out = l.buffers_at(result);
  if (!against.expected) {
    const std::string wrong = p.spot_check(c, out, against.draw);
    return {wrong.empty() ? Verdict::AC : Verdict::WA, wrong};
  }
  const Verification v = verify_outputs(p, c, out, *against.expected, o.ret);
  return {v.ok ? Verdict::AC : Verdict::WA, v.message, v.max_abs, v.max_rel, v.summary};
}

}  // namespace hpcjudge
