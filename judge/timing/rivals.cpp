#include "judge/timing/rivals.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <future>

#include "sdk/bytes.h"
#include "judge/grading/compile.h"
#include "judge/isolation/sandbox.h"
#include "judge/reports/text.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

bool baseline_is_quick(const Problem& p, const Scale& cached) {
  const auto cases = p.benchmarks();
  if (cases.empty()) return false;
  for (const Case& c : cases) {
    bool found = false;
    for (const CaseScale& s : cached.cases)
      if (s.name == c.name) {
        found = true;
        if (s.baseline_s <= 0 || s.baseline_s > kBaselineBesideS) return false;
      }
    if (!found) return false;
  }
  return true;
}

}  // namespace

size_t call_order_cycle(size_t rivals) { return rivals == 0 ? 1 : rivals == 1 ? 2 : rivals == 2 ? 6 : 2 * (rivals + 1); }

std::vector<int> call_order(size_t run, size_t rivals) {
  constexpr int S = kSubmissionCall;
  if (rivals == 2) {  // the six orders, each pair of runs the submission and the fast reference swapped
    static constexpr int kCycle[6][3] = {{S, 0, 1}, {0, S, 1}, {1, S, 0}, {1, 0, S}, {S, 1, 0}, {0, 1, S}};
    const int* o = kCycle[run % 6];
    return {o[0], o[1], o[2]};
  }
  // Otherwise each rotation of (submission, rivals...) and then the same backwards: a pair of sides d places
  // apart in a rotation is -d apart in its reverse, so each (place, place) comes as often as its mirror image.
  std::vector<int> order{S};
  for (size_t k = 0; k < rivals; ++k) order.push_back(static_cast<int>(k));
  const size_t sides = rivals + 1, r = run % call_order_cycle(rivals);
  std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>((r / 2) % sides), order.end());
  if (r % 2 == 1) std::reverse(order.begin(), order.end());
  return order;
}

Rivals::Rivals(const Problem& p, const Paths& paths, const GradeOptions& opt, const SessionOptions& session,
               const Scale& cached) {
  std::vector<std::string> roles = {"fast"};
  if (baseline_is_quick(p, cached)) {
    roles.push_back("baseline");
  } else {
    notes_.push_back("baseline: its cached medians (a separate run) are used; over " +
                     format_seconds(kBaselineBesideS) + " a call somewhere, too slow to time beside every run");
  }
  const bool gpu = p.info().kind == Kind::GPU;
  for (const std::string& role : roles) {
    auto m = std::make_unique<Member>();
    m->role = role;
    const fs::path src = reference_solution(p, paths, role);
    try {
      m->source = read_regular_file(src, kMaxSourceBytes);
    } catch (const std::exception& e) {
      notes_.push_back(role + ": not timed beside (" + e.what() + ")");
      continue;
    }
    SessionOptions so = session;
    so.library = compiled_library(m->dir.path);
    so.wrapper.clear();
    so.under_tool = false;  // no profiler around a rival: confined
    so.pin_read_back = false;  // read back on a case's first call only
    // Its calls take the submission's round trip and late-work allowance (late_work_as), so it measures no
    // round trip after cache flushes: 21 pings, each after a flush, which took 0.5 s of each rival's start
    // on the 2-core VM.
    so.timed_calls = false;
    so.judges_own = true;  // not dumpable, and its threads watched (judge/isolation/scheduling.h)
    if (opt.sandbox) so.wrapper = sandbox_wrapper(paths, {.folder = m->dir.path, .gpu = gpu, .hidden = opt.hidden});
    m->session = std::make_unique<Session>(paths, p, so);
    members_.push_back(std::move(m));
  }
}

void Rivals::start(const Problem& p, const Paths& paths, const GradeOptions& opt, const std::string& arch,
                   const std::string& machine_fingerprint, Listener& listener) {
  // Each rival compiled and launched on a thread of its own (a GPU runner's launch is mostly its CUDA context),
  // then made ready one after another.
  std::vector<std::future<CompileResult>> launching;
  for (auto& m : members_)
    launching.push_back(std::async(std::launch::async, [&, m = m.get()] {
      CompileResult cr = compile_reference(p, paths, m->role, m->source, m->dir.path,
                                           {.arch = arch, .sandbox = opt.sandbox, .hidden = opt.hidden},
                                           machine_fingerprint);
      if (cr.ok) m->session->launch(60);  // how it went: ready() says
      return cr;
    }));
  std::vector<CompileResult> compiled;
  for (auto& f : launching) compiled.push_back(f.get());
  std::vector<std::unique_ptr<Member>> started;
  for (size_t k = 0; k < members_.size(); ++k) {
    auto& m = members_[k];
    const std::string& role = m->role;
    const CompileResult& cr = compiled[k];
    if (!cr.ok) {
      notes_.push_back(role + ": not timed beside (it did not compile: " + cr.message + ")");
      continue;
    }
    listener.note((cr.cached ? "the " + role + " reference, compiled earlier on this machine,"
                             : "compiled the " + role + " reference,") +
                  std::string(" to time it beside each run"));
    if (auto bad = failed_call(m->session->ready(60))) {
      notes_.push_back(role + ": not timed beside (its runner did not start: " + bad->message + ")");
      continue;
    }
    notes_.push_back(role + ": timed beside every run, on the same inputs");
    started.push_back(std::move(m));
  }
  members_ = std::move(started);  // the others, and their runners, end here
}

void Rivals::late_work_as(const Session& timed) {
  for (auto& m : members_)
    if (m->session) m->session->late_work_as(timed);
}

std::vector<Session*> Rivals::sessions() const {
  std::vector<Session*> all;
  for (const auto& m : members_)
    if (m->session) all.push_back(m->session.get());
  return all;
}

Rivals::~Rivals() {
  for (auto& m : members_)
    if (m->session) m->session->finish();
}

void Rivals::withdraw(Member& m, const std::string& why) {
  if (!m.failure.empty()) return;
  m.failure = why;
  notes_.push_back(m.role + ": withdrawn (" + why + "); its cached medians are used");
  if (m.session) m.session->finish();
}

void Rivals::withdraw(Member& m, const Case& c, Verdict v, const std::string& message) {
  withdraw(m, std::string(verdict_name(v)) + " on case " + c.name + ": " + message);
}

bool Rivals::passes(Member& m, const Problem& p, const Case& c, const Against& check, const CallOutcome& o,
                    const std::byte* result) {
  const Checked ck = check_outputs(p, c, *m.laid, check, o, result);
  if (ck.verdict != Verdict::AC) withdraw(m, c, ck.verdict, ck.message);
  return ck.verdict == Verdict::AC;
}

void Rivals::lay_out(const Problem& p, const Case& c, const LaidCase& submission) {
  for (auto& m : members_) {
    if (!m->failure.empty()) continue;
    m->laid = hpcjudge::lay_out(p, c, *m->session, {.same_inputs = &submission, .inputs_cache = {}, .rival = true});
    if (m->laid->failure) withdraw(*m, "case " + c.name + ": " + m->laid->failure->message);
  }
}

void Rivals::load(const Case& c, const LaidCase& sub, const Session& loaded, double limit, const JudgeDevice* stage) {
  for (auto& mp : members_) {
    Member& m = *mp;
    m.loaded = false;
    m.stage = nullptr;
    m.unchecked.reset();
    if (!m.failure.empty() || !m.laid) continue;
    LaidCase& l = *m.laid;
    const CallOptions opt{.timeout_s = limit};
    CallOutcome o;
    // On the device, where the layouts differ in the workspaces at most (all they copy is at the same
    // offsets: ArenaLayout::copied), and a checked call is checked against the submission's image
    // (check_beside()), which holds the same inputs there: the rival's own image is needed only to load from.
    // On the H200, rle-compress's baseline (a 2.1 GB workspace where the fast reference's has none) took 1.2 s
    // of its first run to pin and fill an image and a read-back of its own. With a stage, copied from it inside
    // its call instead (CallOptions::stage).
    const bool same = same_but_workspaces(l.layout, sub.layout);
    if (same && stage && m.session->judge_held()) m.stage = stage;
    const bool on_device = same && (m.stage || m.session->load_from(loaded, l.sig, l.layout, opt, o));
    m.beside = on_device;
    if (!on_device) {
      copy_inputs(sub, l, false);  // this call's; the per-case ones lay_out() copied
      prepare(l, m.session->image());
      o = m.session->load(l.sig, l.layout, opt);
    } else {
      for (const GeneratedScalar& g : l.sig.generated) l.sig.args[g.arg].scalar = sub.sig.args[g.arg].scalar;
    }
    if (auto bad = failed_call(o)) {
      withdraw(m, c, bad->verdict, bad->message);
      continue;
    }
    m.loaded = true;
  }
}

std::optional<double> Rivals::call(size_t k, const Problem& p, const Case& c, const Against* check, double limit,
                                   BackgroundWork* quiet) {
  Member& m = *members_[k];
  if (!m.failure.empty() || !m.laid || !m.loaded) return std::nullopt;
  m.loaded = false;
  LaidCase& l = *m.laid;
  const bool later = check && m.beside;  // read back and checked by check_beside()
  const CallOutcome o = m.session->call(l.sig, l.layout,
                                        {.flush = true,
                                         .timeout_s = limit,
                                         .device_memory_limit = l.device_memory_limit,
                                         .loaded = true,
                                         .read_back = check && !later ? ReadBack::Outputs : ReadBack::None,
                                         .quiet = quiet,
                                         .stage = m.stage});
  if (auto bad = failed_call(o)) {
    withdraw(m, c, bad->verdict, bad->message);
    return std::nullopt;
  }
  if (later) m.unchecked = o;
  else if (check && !passes(m, p, c, *check, o, m.session->result())) return std::nullopt;
  return o.interval_s;
}

std::optional<std::string> Rivals::slowed_from_outside() {
  for (auto& m : members_) {
    if (!m->failure.empty() || !m->session) continue;
    if (auto why = m->session->slowed_from_outside()) {
      const std::string slowed = "the " + m->role + " reference's runner, waiting beside the submission's, was "
                                 "slowed from outside the judge: its " + *why;
      withdraw(*m, slowed);
      return slowed;
    }
  }
  return std::nullopt;
}

void Rivals::check_beside(const Problem& p, const Case& c, const Against& check, Session& sub) {
  for (auto& mp : members_) {
    Member& m = *mp;
    if (!m.unchecked || !m.failure.empty()) continue;
    const CallOutcome o = *m.unchecked;
    m.unchecked.reset();
    const LaidCase& l = *m.laid;
    if (!sub.read_back_from(*m.session, l.sig, l.layout)) {
      withdraw(m, "case " + c.name + ": its buffers could not be read back beside the submission's");
      continue;
    }
    passes(m, p, c, check, o, sub.result());
  }
}

}  // namespace hpcjudge
