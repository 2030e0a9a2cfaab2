#include "judge/timing/bench_runner.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <string>

#include "judge/grading/inputs_ahead.h"
#include "judge/grading/laid_case.h"
#include "judge/timing/budget.h"
#include "judge/timing/loop.h"
#include "judge/verdicts/forgery.h"
#include "judge/verdicts/judge_error.h"
#include "judge/verdicts/report_verdict.h"

namespace hpcjudge {

namespace {

// The submission's call or a rival's slowing the judge or a rival waiting beside it: the FAIL message, or none.
std::optional<std::string> slowed_beside(Rivals* rivals, const std::optional<Scheduling>& judge_thread) {
  std::optional<std::string> judge_why = judge_slowed(judge_thread);
  std::optional<std::string> rival_why = !judge_why && rivals ? rivals->slowed_from_outside() : std::nullopt;
  return slowing_forgery(judge_why, rival_why);
}

// A GPU grade side by side on a device: each run's image uploaded once to a stage of the judge's, from which
// every side's call copies its buffers right after its own lock (CallOptions::stage; docs/design.md, "Device
// work between calls"). Null where there is no stage.
std::unique_ptr<JudgeDevice> make_stage(const BenchContext& ctx) {
  if (!ctx.rivals || ctx.rivals->size() == 0 || !ctx.s.judge_held())
    return nullptr;
  try {
    return make_judge_device(ctx.opt.device, {.stage = true});
  } catch (const std::exception&) {
    return nullptr;  // then every side is loaded at the run's start
  }
}

// What one run left for the case's figures.
struct RunResult {
  CallOutcome o;
  std::vector<double> beside;  // each rival's time of the run (0: not timed)
  Checked ck;
};

// One performance case's loop, from its laid-out buffers to its BenchResult.
class CaseRunner {
 public:
  CaseRunner(const BenchContext& ctx, const Case& c, LaidCase& l, JudgeDevice* stage, const TimingPolicy& policy,
             std::vector<std::optional<BenchResult>>& done, BenchResult& b)
      : ctx_(ctx), c_(c), l_(l), stage_(stage), nr_(ctx.rivals ? ctx.rivals->size() : 0), done_(done), b_(b),
        loop_(policy, nr_), rival_times_(nr_), limit_(ctx.p.info().bench_time_limit_s),
        spot_(ctx.p.spot_checked(c)),
        // A GPU problem's next input set is made while this run's calls are in flight (judge/grading/inputs_ahead.h).
        inputs_(ctx.p, c, l, ctx.opt.seed,
                {.ahead = ctx.p.info().kind == Kind::GPU && !ctx.r.emulated,
                 .spot = spot_}) {
    for (size_t k = 0; k < nr_; ++k)
      if (!ctx_.rivals->active(k)) loop_.drop_rival(k);
  }

  // The loop: run after run until the stopping rule says enough or a run fails; `phase` laps the case's wall
  // time into BenchResult::wall.
  void loop(Stopwatch& phase) {
    for (int run = 0; loop_.want_more(); ++run)
      if (!accept_run(do_one_run(run, phase))) break;
  }
  // The case's figures, once the loop is over.
  void summarise();

 private:
  void check_resolved();
  RunResult do_one_run(int run, Stopwatch& phase);
  Against take_inputs(int run, uint32_t set, InputsAhead::Set& made);
  CallOutcome call_every_side(int run, const Against& against, std::vector<double>& beside, Stopwatch& step);
  void call_rival(size_t k, int run, const Against& against, std::vector<double>& beside);
  Checked check_run(const CallOutcome& o, const Against& against);
  Checked check_floor(Checked ck, const CallOutcome& o);
  bool accept_run(const RunResult& one);
  void record_timed_run(const RunResult& one);
  void trace_run(int run, const InputsAhead::Set& made) const;

  const BenchContext& ctx_;
  const Case& c_;
  LaidCase& l_;
  JudgeDevice* stage_;
  const size_t nr_;
  std::vector<std::optional<BenchResult>>& done_;
  BenchResult& b_;
  TimingLoop loop_;
  std::vector<std::vector<double>> rival_times_;  // each rival's timed runs
  Model model_;
  double floor_s_ = 0;  // the physical floor of a timed call (judge/machine/calibration.h)
  std::vector<double> reported_;   // the runner's own figures, for the cross-check
  std::vector<double> on_device_;  // GradeOptions::device_time: the timed calls' device times (judge bench)
  double cpu_s_ = 0, body_s_ = 0, ready_s_ = 0;  // `judge profile`: the timed calls' CPU, wall and wait times
  double fastest_reply_ = std::numeric_limits<double>::infinity();  // and the judge's, up to the reply
  const double limit_;
  const bool spot_;
  // HPCJUDGE_TRACE: a line per run, in ms, of where the run's wall time goes (the judge's, never the score's).
  const bool trace_ = tracing();
  struct {
    double load = 0, rivals = 0, call = 0, check = 0;
  } steps_;
  std::random_device entropy_;
  InputsAhead inputs_;
};

// Fresh inputs for every call, warm-up included (input sets 2, 3, ...; the tests use 0 and 1), in the same
// buffers: no input set repeats, so no answer cached on pointers, sizes, samples or hashes of the inputs is ever
// right. Each output is checked against the reference, or for a spot-checked case by a randomised check the
// submission cannot foresee.
Against CaseRunner::take_inputs(int run, uint32_t set, InputsAhead::Set& made) {
  Stopwatch step;
  made = inputs_.take(set);
  step.lap();
  if (run == 0) {
    model_ = spot_ ? ctx_.p.model(c_) : ctx_.p.model_of(c_, made.expected);
    b_.bytes = model_.bytes;
    b_.flops = model_.flops;
    b_.edges = model_.edges;
    if (ctx_.peaks.get()) floor_s_ = physical_floor_s(model_.bytes, model_.flops, *ctx_.peaks.get());
  }
  return Against{spot_ ? nullptr : &made.expected, (uint64_t{entropy_()} << 32) ^ entropy_()};
}

RunResult CaseRunner::do_one_run(int run, Stopwatch& phase) {
  const uint32_t set = 2 + static_cast<uint32_t>(run);
  InputsAhead::Set made;
  const Against against = take_inputs(run, set, made);
  b_.wall.inputs += phase.lap();
  Stopwatch step;
  steps_.load = steps_.rivals = steps_.call = 0;
  prepare(l_, ctx_.s.image());
  RunResult one;
  one.beside.assign(nr_, 0.0);
  one.o = call_every_side(run, against, one.beside, step);
  if (one.o.device_peak_bytes)
    b_.device_peak_bytes = std::max(b_.device_peak_bytes.value_or(0), *one.o.device_peak_bytes);
  b_.wall.calls += phase.lap();
  one.ck = check_run(one.o, against);
  b_.wall.checks += phase.lap();
  steps_.check = step.lap();
  if (trace_) trace_run(run, made);
  one.ck = check_floor(one.ck, one.o);
  if (one.ck.verdict != Verdict::AC)
    one.ck.message = "timed run " + std::to_string(run + 1) + " (input set " + std::to_string(set) +
                     (spot_ ? ", spot-checked" : "") + "): " + one.ck.message;
  return one;
}

// A rival on the same inputs. Its interval less the submission's round trip, not its own: each runner's round
// trip is an estimate (the 10th percentile of 21 cold pings), and on the H200 the rivals' came out at least 40
// and 97 us above the submission's, which put a fixed error into every ratio of a short case (vector-add's
// n32M, the fast reference against itself: 1.12x its twin's time, and 1.03x its baseline's, though the raw
// intervals' medians were 615 us against 632 and 676).
void CaseRunner::call_rival(size_t k, int run, const Against& against, std::vector<double>& beside) {
  if (!ctx_.rivals->active(k)) {  // withdrawn (in its load or an earlier call): its ratios no longer wait
    loop_.drop_rival(k);
    return;
  }
  const auto interval = ctx_.rivals->call(k, ctx_.p, c_, run == 0 ? &against : nullptr, limit_, &inputs_);
  if (interval) beside[k] = std::max(0.0, *interval - ctx_.s.round_trip(true).subtracted_s);
  else loop_.drop_rival(k);
}

// Every side's call of the run, each side at each place of the run as often as another (call_order(): the place
// changes a call's time). On a device with a stage, the run's image onto it once, and each side's buffers copied
// from it inside its own call, right after its lock. Otherwise every runner's buffers loaded before any call of
// the run: the rivals' from the submission's, on a GPU on the device (one upload), while no call has touched
// them yet (in a CPU grade's common arena each call loads its own, right before it: Session::load).
CallOutcome CaseRunner::call_every_side(int run, const Against& against, std::vector<double>& beside,
                                        Stopwatch& step) {
  Session& s = ctx_.s;
  const CallOptions timed{.flush = true,
                          .timeout_s = limit_,
                          .device_memory_limit = l_.device_memory_limit,
                          .quiet = &inputs_,
                          .device_time = ctx_.opt.device_time};
  const bool staged = stage_ && s.stage_image(*stage_, l_.sig, l_.layout);
  // Staged, the submission's runner held before any call of the run (after_call() let it run).
  CallOutcome o = staged ? s.hold_between_calls("before a run's first call") : s.load(l_.sig, l_.layout, timed);
  if (o.status != CallOutcome::Ok) return o;
  if (nr_ > 0) ctx_.rivals->load(c_, l_, s, limit_, staged ? stage_ : nullptr);
  steps_.load = step.lap();
  for (const int who : call_order(loop_.samples().size(), nr_)) {  // the timed runs so far: this one's place
    if (who != kSubmissionCall) {
      call_rival(static_cast<size_t>(who), run, against, beside);
      steps_.rivals += step.lap();
      continue;
    }
    CallOptions now = timed;
    now.loaded = true;
    if (staged) now.stage = stage_;
    o = s.call(l_.sig, l_.layout, now);
    steps_.call = step.lap();
    if (o.status != CallOutcome::Ok) break;  // the rest would be measured for nothing
  }
  return o;
}

// The submission's call checked, then what ran after it, the judge's and the rivals' scheduling, and the rivals'
// checked calls, read back into the submission's read-back now that it has been checked.
Checked CaseRunner::check_run(const CallOutcome& o, const Against& against) {
  Session& s = ctx_.s;
  Checked ck = judge_call(ctx_.p, c_, l_, against, o, s.image(), s.result());
  if (after_call_counts(ck, true))
    if (auto bad = failed_call(s.after_call(limit_))) ck = *bad;
  if (ck.verdict == Verdict::AC)
    if (auto why = slowed_beside(ctx_.rivals, ctx_.judge_thread)) ck = {Verdict::FAIL, *why};
  if (ck.verdict == Verdict::AC && nr_ > 0) ctx_.rivals->check_beside(ctx_.p, c_, against, s);
  return ck;
}

// A call under the physical floor: the peaks measured again once (they can only have been too low), then FAIL
// where it is under the floor still.
Checked CaseRunner::check_floor(Checked ck, const CallOutcome& o) {
  if (ck.verdict != Verdict::AC) return ck;
  if (faster_than_hardware(o.interval_s, floor_s_) && ctx_.peaks.remeasure(&done_))
    floor_s_ = physical_floor_s(model_.bytes, model_.flops, *ctx_.peaks.get());
  if (auto forged = ctx_.peaks.get() ? faster_than_hardware_forgery(o.interval_s, model_, floor_s_, *ctx_.peaks.get())
                                     : std::nullopt)
    return {Verdict::FAIL, *forged};
  return ck;
}

// A run's figures into the loop (a failing run ends the case: false).
bool CaseRunner::accept_run(const RunResult& one) {
  if (one.ck.verdict != Verdict::AC) {
    b_.verdict = one.ck.verdict;
    b_.message = one.ck.message;
    return false;
  }
  if (!loop_.warming_up()) record_timed_run(one);
  bool all = true;  // a ratio only where every active rival was timed this run
  for (size_t k = 0; k < nr_; ++k) all = all && (!ctx_.rivals->active(k) || one.beside[k] > 0);
  loop_.add(one.o.seconds, all ? one.beside : std::vector<double>{});
  ctx_.listener.bench_progress(c_, loop_.progress());
  return true;
}

void CaseRunner::record_timed_run(const RunResult& one) {
  const CallOutcome& o = one.o;
  reported_.push_back(o.reported_seconds);
  if (o.device_seconds) on_device_.push_back(*o.device_seconds);
  if (o.cpu_seconds && o.body_seconds) cpu_s_ += *o.cpu_seconds, body_s_ += *o.body_seconds;
  ready_s_ += o.ready_seconds.value_or(0);
  fastest_reply_ = std::min(fastest_reply_, o.replied_s);
  for (size_t k = 0; k < nr_; ++k)
    if (ctx_.rivals->active(k)) rival_times_[k].push_back(one.beside[k]);
}

// A median the judge's clock could not resolve: JE, or FAIL where a reference beside it was resolved.
void CaseRunner::check_resolved() {
  const auto why = unresolved_timing(b_.stats.median, b_.stats.runs, ctx_.s.round_trip().subtracted_s);
  if (!why) return;
  b_.verdict = Verdict::JE;
  b_.message = *why;
  for (size_t k = 0; k < nr_; ++k) {
    if (!ctx_.rivals->active(k) || rival_times_[k].empty()) continue;
    const double rival = Stats::of(rival_times_[k]).median;
    if (auto forged = early_reply_forgery(b_.stats.median, rival, ctx_.rivals->role(k), ctx_.s.round_trip())) {
      b_.verdict = Verdict::FAIL;
      b_.message = *forged;
      return;
    }
  }
}

// The case's figures: its stats, its paired ratios, the runner's own figure cross-checked, its share of the peaks.
void CaseRunner::summarise() {
  b_.stats = loop_.stats();
  for (size_t k = 0; k < nr_; ++k) {
    if (!ctx_.rivals->active(k) || loop_.log_ratios(k).empty()) continue;
    const Stats ratios = Stats::of(loop_.log_ratios(k));
    b_.paired.push_back({.role = ctx_.rivals->role(k),
                         .median_log = ratios.median,
                         .ci = ratios.median_ci,
                         .pairs = ratios.runs,
                         .stats = Stats::of(rival_times_[k])});
  }
  if (b_.verdict == Verdict::AC) check_resolved();
  if (b_.verdict == Verdict::AC && !reported_.empty()) {
    if (auto forged = disagreement(Stats::of(reported_).median, fastest_reply_, ctx_.s.round_trip())) {
      b_.verdict = Verdict::FAIL;
      b_.message = *forged;
    }
  }
  if (!on_device_.empty()) b_.device = Stats::of(on_device_);
  if (body_s_ > 0) b_.cpus_busy = cpu_s_ / body_s_, b_.cpus_waited_for = ready_s_ / body_s_;
  const PeaksInUse& pk = ctx_.peaks;
  if (pk.get() && b_.verdict == Verdict::AC) {
    b_.percent_of_peak = percent_of_peak(b_.bytes, b_.flops, b_.stats.median, *pk.get());
    if (*b_.percent_of_peak > 100 && ctx_.peaks.remeasure(&done_))
      b_.percent_of_peak = percent_of_peak(b_.bytes, b_.flops, b_.stats.median, *pk.get());
    if (b_.device) b_.device_percent_of_peak = percent_of_peak(b_.bytes, b_.flops, b_.device->median, *pk.get());
  }
  b_.stop = b_.verdict == Verdict::AC ? loop_.stop_reason() : "failed";
}

void CaseRunner::trace_run(int run, const InputsAhead::Set& made) const {
  std::fprintf(stderr,
               "trace run %s %d generate %.1f reference %.1f wait %.1f load %.1f rivals %.1f call %.1f check %.1f\n",
               c_.name.c_str(), run, 1e3 * made.generate_s, 1e3 * made.reference_s, 1e3 * made.waited_s,
               1e3 * steps_.load, 1e3 * steps_.rivals, 1e3 * steps_.call, 1e3 * steps_.check);
}

// Cases timed, held until they are reported in the problem's order (at the end, or at the first failure).
struct InProblemOrder {
  Report& r;
  std::vector<std::optional<BenchResult>> done;
  ~InProblemOrder() {
    for (auto& b : done)
      if (b) r.bench.push_back(std::move(*b));
  }
};

// The case's buffers laid out for the submission and each rival; false where the submission's lay-out failed
// (the report's verdict then says why).
bool lay_out_case(const BenchContext& ctx, const Case& c, LaidCase& l, BenchResult& b, Stopwatch& phase) {
  l = lay_out(ctx.p, c, ctx.s, {.seed = ctx.opt.seed, .inputs_cache = ctx.paths.cache});
  if (l.failure) {
    set_verdict(ctx.r, l.failure->verdict, "performance case " + c.name, l.failure->message);
    return false;
  }
  const double own_lay_out_s = phase.lap();
  if (ctx.rivals) ctx.rivals->lay_out(ctx.p, c, l);
  b.wall.lay_out = own_lay_out_s + phase.lap();
  if (tracing())  // the case's lay-out, in ms: the submission's per-case inputs and setup(), then the rivals'
    std::fprintf(stderr, "trace lay-out %s inputs %.1f setup %.1f rivals %.1f\n", c.name.c_str(), 1e3 * l.inputs_s,
                 1e3 * l.setup_s, 1e3 * (b.wall.lay_out - own_lay_out_s));
  b.name = c.name;
  b.sizes = c.size_string();
  return true;
}

}  // namespace

std::vector<Case> timed_cases(const Problem& p, const GradeOptions& opt, const MachineInfo& m) {
  std::vector<Case> cases;
  for (const Case& c : p.benchmarks())
    if (c.min_cores <= m.cores && (opt.only_case.empty() || c.name == opt.only_case)) cases.push_back(c);
  return cases;
}

void run_bench(const BenchContext& ctx) {
  const std::vector<Case> cases = timed_cases(ctx.p, ctx.opt, ctx.r.machine);
  double looped_s = 0;  // the grade's timing loops so far (a GPU grade's share them: kGpuTimingBudgetS)
  // Timed heaviest first (judge/timing/budget.h), reported in the problem's order: timed last, the heaviest case
  // found the shared budget spent by the cases before it and its minimum of runs stretched the grade past its
  // end (on the H200, prefix-sum's n16M took 69 runs, then n256M's ten 3.4 s: a 10.5 s grade).
  std::vector<size_t> bytes;
  for (const Case& c : cases) bytes.push_back(ArenaLayout::plan(ctx.p.signature(c).buffers).total);
  const std::vector<size_t> order = heaviest_first(bytes);
  InProblemOrder results{ctx.r, std::vector<std::optional<BenchResult>>(cases.size())};
  const std::unique_ptr<JudgeDevice> stage = make_stage(ctx);
  const size_t nr = ctx.rivals ? ctx.rivals->size() : 0;
  const bool gpu = ctx.p.info().kind == Kind::GPU;
  for (size_t k = 0; k < order.size(); ++k) {
    const Case& c = cases[order[k]];
    ctx.listener.bench_start(c);
    Stopwatch total, phase;
    BenchResult b;
    LaidCase l;
    if (!lay_out_case(ctx, c, l, b, phase)) return;
    const TimingPolicy policy =
        case_policy(ctx.p.info().timing, gpu, nr, nr > 0 ? call_order_cycle(nr) : 1, looped_s,
                    static_cast<int>(cases.size() - k), gpu ? ctx.grade_s() : 0);
    const Stopwatch looping;
    CaseRunner runner(ctx, c, l, stage.get(), policy, results.done, b);
    runner.loop(phase);
    looped_s += looping.elapsed();
    runner.summarise();
    b.wall.total = total.lap();
    results.done[order[k]] = b;
    ctx.listener.bench_done(b);
    if (b.verdict != Verdict::AC) {  // the first failing case ends the timing
      set_verdict(ctx.r, b.verdict, "performance case " + c.name, b.message);
      return;
    }
  }
}

}  // namespace hpcjudge
