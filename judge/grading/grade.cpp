#include "judge/grading/grade.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <limits>
#include <optional>
#include <random>

#include <sstream>

#include <sched.h>
#include <unistd.h>

#include "judge/measure/calibration.h"
#include "judge/measure/cpu_activity.h"
#include "judge/grading/compile.h"
#include "judge/grading/early_runners.h"
#include "judge/files.h"
#include "judge/measure/gpu.h"
#include "judge/timing/wake_latency.h"
#include "harness/timing.h"
#include "judge/timing/budget.h"
#include "judge/timing/loop.h"
#include "harness/verify.h"
#include "judge/grading/reference_cache.h"
#include "judge/isolation/sandbox.h"
#include "judge/isolation/scheduling.h"
#include "judge/timing/score.h"
#include "judge/grading/inputs_ahead.h"
#include "judge/grading/laid_case.h"
#include "judge/timing/rivals.h"
#include "judge/grading/sanitizer_output.h"
#include "judge/isolation/session.h"
#include "judge/reports/human.h"
#include "judge/reports/text.h"
#include "judge/sha256.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

void set_verdict(Report& r, Verdict v, const std::string& where, const std::string& message) {
  if (worst(r.verdict, v) == r.verdict && r.verdict != Verdict::AC) return;
  r.verdict = v;
  r.message = where.empty() ? message : where + ": " + message;
}

// The host memory a submission's process may take: the arena of its largest
// case twice over, plus 4 GiB for the runtime, its threads and the cache flush.
// The runner applies it to the address space of a CPU problem's process and to
// the private writable memory of a GPU problem's (hpcjudge-runner --memory-limit).
size_t host_memory_limit(const Problem& p) {
  size_t largest = 0;
  std::vector<Case> cases = p.tests();
  for (const Case& c : p.benchmarks()) cases.push_back(c);
  for (const Case& c : cases) largest = std::max(largest, ArenaLayout::plan(p.signature(c).buffers).total);
  return 2 * largest + (size_t{4} << 30);
}

// One functional test: inputs of input set `set`, the call, every check.
TestResult run_test(const Problem& p, const Case& c, const std::string& name, uint32_t set, const GradeOptions& opt,
                    const Paths& paths, Session& s, bool emulated) {
  Stopwatch step;
  LaidCase l = lay_out(p, c, s, {.seed = opt.seed, .inputs_cache = paths.cache});
  const double laid = step.lap();
  if (l.failure) return {name, c.size_string(), l.failure->verdict, 0, l.failure->message, 0, 0, std::nullopt};
  p.generate(c, opt.seed, set, l.buffers());
  const double generated = step.lap();
  const Expected expected = reference_answer(p, c, l.buffers(), paths);
  const double referenced = step.lap();
  prepare(l, s.image());
  const double limit = p.info().test_time_limit_s * (emulated ? kEmulatedTimeScale : 1);
  const CallOutcome o = s.call(l.sig, l.layout, {.timeout_s = limit, .device_memory_limit = l.device_memory_limit});
  const double called = step.lap();
  Checked ck = judge_call(p, c, l, {&expected}, o, s.image(), s.result());
  if (s.alive() && ck.verdict != Verdict::RE && ck.verdict != Verdict::TLE)
    if (auto bad = failed_call(s.after_call(limit))) ck = *bad;
  // HPCJUDGE_TRACE: where a functional test's wall time goes, in ms (the judge's, never a score's).
  if (tracing())
    std::fprintf(stderr, "trace test %s lay-out %.1f generate %.1f reference %.1f call %.1f check %.1f\n",
                 c.name.c_str(), 1e3 * laid, 1e3 * generated, 1e3 * referenced, 1e3 * called, 1e3 * step.lap());
  // Emulated --sanitize: device memory solve() allocated and left allocated is a leak, as memcheck's leak check
  // says; the emulator's bounds checks, which run anyway, stand for memcheck's and are named so.
  if (emulated && opt.sanitize && ck.verdict == Verdict::AC && o.device_held_bytes && *o.device_held_bytes > 0)
    ck = {Verdict::RE, "memcheck: solve() left " + std::to_string(*o.device_held_bytes) +
                           " bytes of device memory allocated that it never freed (a leak; CPU emulation's leak check)"};
  else if (emulated && opt.sanitize && ck.verdict == Verdict::RE)
    ck.message = "memcheck: " + ck.message + " (CPU emulation's checks)";
  return {name, c.size_string(), ck.verdict, o.seconds, ck.message, ck.max_abs, ck.max_rel, o.device_peak_bytes,
          ck.summary};
}

// Why a test is too large for CPU emulation, or "" (ProblemInfo::emulation_max_bytes, _flops).
std::string too_large_to_emulate(const Problem& p, const Case& c) {
  const Model m = p.model(c);
  const ProblemInfo& i = p.info();
  char why[240];
  if (m.bytes > i.emulation_max_bytes) {
    std::snprintf(why, sizeof why, "too large for CPU emulation: %.3g MB of traffic, over the %.3g MB it runs; "
                  "judged on a GPU only", m.bytes / 1e6, i.emulation_max_bytes / 1e6);
    return why;
  }
  if (m.flops > i.emulation_max_flops) {
    std::snprintf(why, sizeof why, "too large for CPU emulation: %.3g FLOP, over the %.3g it runs; judged on a GPU only",
                  m.flops, i.emulation_max_flops);
    return why;
  }
  return "";
}

void run_tests(const Problem& p, const GradeOptions& opt, const Paths& paths, Session& s, Report& r,
               Listener& listener) {
  std::vector<Case> cases;
  for (const Case& c : p.tests()) {
    const std::string why = r.emulated ? too_large_to_emulate(p, c) : "";
    if (why.empty()) {
      cases.push_back(c);
      continue;
    }
    r.emulation_skipped.push_back({c.name, why});
    listener.note("test " + c.name + " (" + c.size_string() + ") skipped: " + why);
  }
  // The last (largest) test once more with other inputs in the same buffers:
  // an answer cached from an earlier call with the same pointers and sizes fails.
  std::vector<std::pair<std::string, uint32_t>> runs;
  for (const Case& c : cases) runs.push_back({c.name, 0});
  if (!cases.empty()) {
    cases.push_back(cases.back());
    runs.push_back({cases.back().name + std::string(kNewInputs), 1});
  }
  double spent = 0;  // solve() time over the tests so far
  for (size_t i = 0; i < cases.size(); ++i) {
    const TestResult t = run_test(p, cases[i], runs[i].first, runs[i].second, opt, paths, s, r.emulated);
    r.tests.push_back(t);
    listener.test_done(t);
    if (t.verdict != Verdict::AC) set_verdict(r, t.verdict, "test " + t.name, t.message);
    // A run-time error or a kill ends the run (Kattis-style); wrong answers do not.
    if (!s.alive() || (t.verdict != Verdict::AC && t.verdict != Verdict::WA)) return;
    // The phase's limit: calls each under the per-call limit cannot add up to hours.
    spent += t.seconds;
    const double all_limit = p.info().tests_time_limit_s * (r.emulated ? kEmulatedTimeScale : 1);
    if (spent > all_limit) {
      char why[200];
      std::snprintf(why, sizeof why,
                    "the functional tests took %.3g s of solve() time up to test %s; the limit for all of them is "
                    "%.3g s%s",
                    spent, t.name.c_str(), all_limit, r.emulated ? " (CPU emulation: 4 times the GPU's)" : "");
      set_verdict(r, Verdict::TLE, "", why);
      return;
    }
  }
}

// What the runners may not read, where no sandbox hides it (SessionOptions::hidden).
std::vector<fs::path> hidden_from_runners(const Paths& paths, const GradeOptions& opt) {
  return opt.sandbox ? std::vector<fs::path>{} : hidden_from_runners(paths, opt.hidden);
}

// Runs `tests` with the runner under compute-sanitizer's `tool`. Returns the
// cause of an RE (a report, a crash) or "".
std::string sanitize(const Problem& p, const std::vector<Case>& tests, const fs::path& lib, const GradeOptions& opt,
                     const Paths& paths, int threads, const std::vector<std::string>& tool) {
  std::vector<std::string> wrapper =
      opt.sandbox ? sandbox_wrapper(paths, {.folder = lib.parent_path(), .gpu = true, .hidden = opt.hidden,
                                            .tmp_bytes = host_memory_limit(p)})
                  : std::vector<std::string>{};
  wrapper.insert(wrapper.end(), {compute_sanitizer_path(), "--error-exitcode", "86", "--print-limit", "5"});
  wrapper.insert(wrapper.end(), tool.begin(), tool.end());
  // Each device buffer its own allocation, so the tool sees reads past one too.
  Session s(paths, p, {.library = lib, .threads = threads, .device = opt.device, .wrapper = wrapper, .exact_buffers = true,
                       .under_tool = true, .hidden = hidden_from_runners(paths, opt)});
  constexpr double kSlow = 300;  // the tools slow kernels down by orders of magnitude
  std::string failure;
  if (auto bad = failed_call(s.start(kSlow))) failure = bad->message;
  for (const Case& c : tests) {
    if (!failure.empty()) break;
    LaidCase l = lay_out(p, c, s, {.seed = opt.seed, .inputs_cache = paths.cache});
    if (l.failure) break;  // the functional tests report it
    p.generate(c, opt.seed, 0, l.buffers());
    prepare(l, s.image());
    // No device-memory limit here: the tool allocates on the submission's behalf.
    if (auto bad = failed_call(s.call(l.sig, l.layout, {.timeout_s = kSlow}))) failure = "test " + c.name + ": " + bad->message;
    else if (auto late = failed_call(s.after_call(kSlow))) failure = "test " + c.name + ": " + late->message;
    if (!parse_sanitizer_output(s.output()).failure().empty()) break;  // one report is enough
  }
  s.finish();
  if (tracing())  // HPCJUDGE_TRACE: the tool's whole output, as it was read
    std::fprintf(stderr, "trace sanitizer %s output begins\n%s\ntrace sanitizer output ends\n", tool.back().c_str(),
                 s.output().c_str());
  // The tool's exit status (86) counts every report, a leak of page-locked host memory too, which is no error here
  // (judge/grading/sanitizer_output.h): such leaks alone leave the run clean.
  const SanitizerOutput tool_said = parse_sanitizer_output(s.output());
  if (std::string report = tool_said.failure(); !report.empty()) return report;
  if (!failure.empty()) return failure;
  if (s.exit_status().exited && s.exit_status().code == 86 && !tool_said.only_excused_errors())
    return "compute-sanitizer reported an error";
  return "";
}

// Functional tests small enough for the sanitizers (at most 1 MiB of buffers).
std::vector<Case> small_tests(const Problem& p) {
  std::vector<Case> v;
  for (const Case& c : p.tests()) {
    size_t bytes = 0;
    for (const auto& b : p.signature(c).buffers) bytes += b.bytes();
    if (bytes <= (size_t{1} << 20)) v.push_back(c);
  }
  return v;
}

// Racecheck and synccheck on the small tests, where the problem asks (ProblemInfo::race_check): the cause of
// an RE ("race: ...") or "". Each tool in a runner of its own, both at once (on the H200 one after the other
// took 1.9 s of prefix-sum's grade, mostly each tool's start); racecheck's report, if both have one, is the
// verdict's. The grade runs this beside the functional tests (their runner is another process, and only
// buffers of at most 1 MiB are laid out here), and counts it once they leave AC or WA.
bool wants_race_check(const Problem& p) { return p.info().race_check && !compute_sanitizer_path().empty(); }

std::string race_check(const Problem& p, const fs::path& lib, const GradeOptions& opt, const Paths& paths,
                       int threads) {
  const std::vector<Case> tests = small_tests(p);
  const char* tools[] = {"racecheck", "synccheck"};
  std::future<std::string> sync_check = std::async(std::launch::async, [&] {
    return sanitize(p, tests, lib, opt, paths, threads, {"--tool", tools[1]});
  });
  const std::string whys[] = {sanitize(p, tests, lib, opt, paths, threads, {"--tool", tools[0]}), sync_check.get()};
  for (int k = 0; k < 2; ++k)
    if (!whys[k].empty()) return "race: " + whys[k] + " (" + tools[k] + ")";
  return "";
}

// --sanitize: memcheck on every functional test, after them (its runs of the large tests beside the tests' own
// would hold the device memory of both at once).
void run_memcheck(const Problem& p, const fs::path& lib, const GradeOptions& opt, const Paths& paths, Report& r,
                  Listener& listener) {
  listener.note("compute-sanitizer memcheck on the functional tests...");
  const std::string why = sanitize(p, p.tests(), lib, opt, paths, r.machine.threads,
                                   {"--tool", "memcheck", "--leak-check", "full"});
  if (!why.empty()) set_verdict(r, Verdict::RE, "", "memcheck: " + why);
}

// The machine's peaks for the timed cases. A peak can only be measured too low (a busy machine), so the first
// time a case seems to beat it -- over 100% of it, or under the physical floor -- it is measured again (the
// highest of each figure kept, judge/measure/calibration.h) before the judge believes the case.
class PeaksInUse {
 public:
  PeaksInUse(const Paths& paths, Report& r, Kind kind, int device)
      : paths_(paths), r_(r), kind_(kind), device_(device), peaks_(machine_peaks(paths, r.machine, kind, device)) {
    if (peaks_) r_.machine.peaks = peaks_->measured;
  }
  const std::optional<Peaks>& get() const { return peaks_; }
  // Measures again, once per grade; false if it was done already or could not be. The cases already timed (in the
  // report, and `timed`: those run_bench holds until it reports them in the problem's order) are put against the
  // figures now known.
  bool remeasure(std::vector<std::optional<BenchResult>>* timed = nullptr) {
    if (remeasured_) return false;
    remeasured_ = true;
    auto fresh = machine_peaks(paths_, r_.machine, kind_, device_, true);
    if (!fresh) return false;
    peaks_ = fresh;
    r_.machine.peaks = peaks_->measured;
    const auto again = [&](BenchResult& b) {
      if (b.percent_of_peak) b.percent_of_peak = percent_of_peak(b.bytes, b.flops, b.stats.median, *peaks_);
      if (b.device_percent_of_peak)
        b.device_percent_of_peak = percent_of_peak(b.bytes, b.flops, b.device->median, *peaks_);
    };
    for (BenchResult& b : r_.bench) again(b);
    if (timed)
      for (std::optional<BenchResult>& b : *timed)
        if (b) again(*b);
    return true;
  }

 private:
  const Paths& paths_;
  Report& r_;
  Kind kind_;
  int device_;
  std::optional<Peaks> peaks_;
  bool remeasured_ = false;
};

// The runner's own figure may only confirm the judge's clock, which is what is
// scored. The judge's interval also holds the wake-ups of the runner and of the
// judge, which a busy machine makes long (its run queue), so the two figures
// agree only loosely, and the judge's fastest run up to the reply is the one to
// compare (CallOutcome::replied_s: what the runner's figure claims ends there; the
// stop that ends a call whose threads went on past the reply is not the runner's
// to see): a median the runner reports below half of it (and below it by three
// times the round trip's spread) is a time the submission's process made up, and
// the case is FAIL, never a score. On the H200's 16-core host, against the whole
// interval, softmax-cpu's fast reference was FAIL at n1M (296 us reported, 632 us
// at the fastest): its pool of 16 OpenMP threads going back to sleep after the
// reply moved each call's end to the stop.
std::optional<std::string> disagreement(double reported_s, double judged_s, const RoundTrip& rt) {
  const double allowed = std::max(3 * rt.noise_s, 0.5 * judged_s);
  if (reported_s + allowed >= judged_s) return std::nullopt;
  char why[320];
  std::snprintf(why, sizeof why,
                "the time reported by the submission's process disagrees with the judge's clock: median %s "
                "reported, %s at the fastest measured by the judge (round trip %s, noise %s subtracted and "
                "allowed for)",
                format_seconds(reported_s).c_str(), format_seconds(judged_s).c_str(),
                format_seconds(rt.subtracted_s).c_str(), format_seconds(rt.noise_s).c_str());
  return std::string(why);
}

// The judge's own thread (the one that times every call) slowed since the grade began
// (judge/isolation/scheduling.h): fewer CPUs than it may have (its CPUs are put back as they were, which any
// process may do for its own threads, and what the machine then gives it is what it may have: a cpuset made
// smaller is no one's forgery), a higher nice value or SCHED_IDLE. Only the submission's code ran meanwhile as the
// judge's user: a judge slowed on every call blurs every side's time into its own (a forgery: FAIL).
std::optional<std::string> judge_slowed(const std::optional<Scheduling>& started) {
  if (!started) return std::nullopt;
  const auto was = Scheduling::of(0);
  sched_setaffinity(0, sizeof started->cpus, &started->cpus);
  const auto may = Scheduling::of(0);
  if (!was || !may) return std::nullopt;
  if (auto why = slowed(*started, *was, may->cpus)) return "the judge's own thread, which times every call, " + *why;
  return std::nullopt;
}

// A call of the submission's may have slowed the judge or a rival waiting beside it: the message of the submission's
// FAIL, or none.
std::optional<std::string> slowed_beside(Rivals* rivals, const std::optional<Scheduling>& judge_thread) {
  std::optional<std::string> why = judge_slowed(judge_thread);
  if (!why && rivals) why = rivals->slowed_from_outside();
  if (!why) return std::nullopt;
  return *why + "; only the submission's code ran as the judge's user meanwhile: a forgery of the timing";
}

// The performance cases a grade times on this machine: those its cores allow, or the one asked for.
std::vector<Case> timed_cases(const Problem& p, const GradeOptions& opt, const MachineInfo& m) {
  std::vector<Case> cases;
  for (const Case& c : p.benchmarks())
    if (c.min_cores <= m.cores && (opt.only_case.empty() || c.name == opt.only_case)) cases.push_back(c);
  return cases;
}

void run_bench(const Problem& p, const GradeOptions& opt, const Paths& paths, const MachineInfo& m, PeaksInUse& pk,
               Session& s, Rivals* rivals, const std::optional<Scheduling>& judge_thread, Report& r,
               Listener& listener, const std::function<double()>& grade_s) {
  const std::vector<Case> cases = timed_cases(p, opt, m);
  double looped_s = 0;  // the grade's timing loops so far (a GPU grade's share them: kGpuTimingBudgetS)
  // Timed heaviest first (harness/timing.h), reported in the problem's order: timed last, the heaviest case
  // found the shared budget spent by the cases before it and its minimum of runs stretched the grade past its
  // end (on the H200, prefix-sum's n16M took 69 runs, then n256M's ten 3.4 s: a 10.5 s grade).
  std::vector<size_t> bytes;
  for (const Case& c : cases) bytes.push_back(ArenaLayout::plan(p.signature(c).buffers).total);
  const std::vector<size_t> order = heaviest_first(bytes);
  struct InProblemOrder {
    Report& r;
    std::vector<std::optional<BenchResult>> done;
    ~InProblemOrder() {
      for (auto& b : done)
        if (b) r.bench.push_back(std::move(*b));
    }
  } results{r, std::vector<std::optional<BenchResult>>(cases.size())};
  // A GPU grade side by side on a device: each run's image uploaded once to a stage of the judge's, from which
  // every side's call copies its buffers right after its own lock (CallOptions::stage; docs/design.md, "Device
  // work between calls"). HPCJUDGE_LOCK_AT_LOAD=1 locks and loads every side before the run's first call instead,
  // as before, to compare.
  std::unique_ptr<JudgeDevice> stage;
  if (rivals && rivals->size() > 0 && s.judge_held() && !std::getenv("HPCJUDGE_LOCK_AT_LOAD")) try {
      stage = make_judge_device(opt.device, {.stage = true});
    } catch (const std::exception&) {
      stage.reset();  // as before: every side loaded at the run's start
    }
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t ci = order[k];
    const Case& c = cases[ci];
    listener.bench_start(c);
    Stopwatch total, phase;
    BenchResult b;
    LaidCase l = lay_out(p, c, s, {.seed = opt.seed, .inputs_cache = paths.cache});
    if (l.failure) {
      set_verdict(r, l.failure->verdict, "performance case " + c.name, l.failure->message);
      return;
    }
    const size_t nr = rivals ? rivals->size() : 0;
    const double own_lay_out_s = phase.lap();
    if (rivals) rivals->lay_out(p, c, l);
    b.wall.lay_out = own_lay_out_s + phase.lap();
    if (tracing())  // the case's lay-out, in ms: the submission's per-case inputs and setup(), then the rivals'
      std::fprintf(stderr, "trace lay-out %s inputs %.1f setup %.1f rivals %.1f\n", c.name.c_str(), 1e3 * l.inputs_s,
                   1e3 * l.setup_s, 1e3 * (b.wall.lay_out - own_lay_out_s));
    // Fresh inputs for every call, warm-up included (input sets 2, 3, ...; the
    // tests use 0 and 1), in the same buffers: no input set repeats, so no
    // answer cached on pointers, sizes, samples or hashes of the inputs is
    // ever right. Each output is checked against the reference, or for a
    // spot-checked case by a randomised check the submission cannot foresee.
    const bool spot = p.spot_checked(c);
    std::random_device entropy;
    b.name = c.name;
    b.sizes = c.size_string();
    TimingPolicy policy = p.info().timing;
    const double own_budget_s = policy.budget_s;
    if (p.info().kind == Kind::GPU)
      policy.budget_s =
          shared_case_budget(policy.budget_s, looped_s, static_cast<int>(cases.size() - k), grade_s());
    if (nr > 0) {  // side by side: enough runs for the ratios too, within a stretch of the case's own budget
      policy.min_runs = std::max(policy.min_runs, kSideBySideMinRuns);
      policy.hard_budget_s = kSideBySideHardBudget * own_budget_s;
      policy.cycle = static_cast<int>(call_order_cycle(nr));
    }
    TimingLoop loop(policy, nr);
    const Stopwatch looping;
    for (size_t k = 0; k < nr; ++k)
      if (!rivals->active(k)) loop.drop_rival(k);
    std::vector<std::vector<double>> rival_times(nr);  // each rival's timed runs
    Model model;
    double floor_s = 0;  // the physical floor of a timed call (judge/measure/calibration.h)
    std::vector<double> reported;  // the runner's own figures, for the cross-check
    std::vector<double> on_device;  // GradeOptions::device_time: the timed calls' device times (judge bench)
    double cpu_s = 0, body_s = 0, ready_s = 0;  // `judge profile`: the timed calls' CPU, wall and wait times
    double fastest_reply = std::numeric_limits<double>::infinity();  // and the judge's, up to the reply
    const double limit = p.info().bench_time_limit_s;
    // HPCJUDGE_TRACE: a line per run, in ms, of where the run's wall time goes (the judge's, never the score's).
    const bool trace = tracing();
    struct {
      double load = 0, rivals = 0, call = 0, check = 0;
    } steps;
    // A GPU problem's next input set is made while this run's calls are in flight (judge/grading/inputs_ahead.h).
    // HPCJUDGE_NO_INPUTS_AHEAD=1 makes each set when taken, to compare (docs/design.md, "The loop").
    const bool ahead = p.info().kind == Kind::GPU && !r.emulated && !std::getenv("HPCJUDGE_NO_INPUTS_AHEAD");
    InputsAhead inputs(p, c, l, opt.seed, {.ahead = ahead, .spot = spot});
    for (int run = 0; loop.want_more(); ++run) {
      const uint32_t set = 2 + static_cast<uint32_t>(run);
      Stopwatch step;
      InputsAhead::Set made = inputs.take(set);
      const Expected& expected = made.expected;
      step.lap();
      if (run == 0) {
        model = spot ? p.model(c) : p.model_of(c, expected);
        b.bytes = model.bytes;
        b.flops = model.flops;
        b.edges = model.edges;
        if (pk.get()) floor_s = physical_floor_s(model.bytes, model.flops, *pk.get());
      }
      const Against against{spot ? nullptr : &expected, (uint64_t{entropy()} << 32) ^ entropy()};
      b.wall.inputs += phase.lap();
      step.lap();
      steps.load = steps.rivals = steps.call = 0;
      prepare(l, s.image());
      // The rivals on the same inputs, each side at each place of the run as often as another
      // (call_order(): the place changes a call's time).
      std::vector<double> beside(nr, 0.0);
      auto call_rival = [&](size_t k) {
        if (!rivals->active(k)) {  // withdrawn (in its load or an earlier call): its ratios no longer wait
          loop.drop_rival(k);
          return;
        }
        // Its interval less the submission's round trip, not its own: each runner's round trip is an estimate
        // (the 10th percentile of 21 cold pings), and on the H200 the rivals' came out at least 40 and 97 us
        // above the submission's, which put a fixed error into every ratio of a short case (vector-add's n32M,
        // the fast reference against itself: 1.12x its twin's time, and 1.03x its baseline's, though the raw
        // intervals' medians were 615 us against 632 and 676).
        const auto interval = rivals->call(k, p, c, run == 0 ? &against : nullptr, limit, &inputs);
        if (interval) beside[k] = std::max(0.0, *interval - s.round_trip(true).subtracted_s);
        else loop.drop_rival(k);
      };
      const CallOptions timed{.flush = true,
                              .timeout_s = limit,
                              .device_memory_limit = l.device_memory_limit,
                              .quiet = &inputs,
                              .device_time = opt.device_time};
      // On a device with a stage, the run's image onto it once, and each side's buffers copied from it inside
      // its own call, right after its lock. Otherwise every runner's buffers loaded before any call of the run:
      // the rivals' from the submission's, on a GPU on the device (one upload), while no call has touched them
      // yet (in a CPU grade's common arena each call loads its own, right before it: Session::load).
      const bool staged = stage && s.stage_image(*stage, l.sig, l.layout);
      // Staged, the submission's runner held before any call of the run (after_call() let it run).
      CallOutcome o = staged ? s.hold_between_calls("before a run's first call") : s.load(l.sig, l.layout, timed);
      if (o.status == CallOutcome::Ok) {
        if (nr > 0) rivals->load(c, l, s, limit, staged ? stage.get() : nullptr);
        steps.load = step.lap();
        for (const int who : call_order(loop.samples().size(), nr)) {  // the timed runs so far: this one's place
          if (who != kSubmissionCall) {
            call_rival(static_cast<size_t>(who));
            steps.rivals += step.lap();
            continue;
          }
          CallOptions now = timed;
          now.loaded = true;
          if (staged) now.stage = stage.get();
          o = s.call(l.sig, l.layout, now);
          steps.call = step.lap();
          if (o.status != CallOutcome::Ok) break;  // the rest would be measured for nothing
        }
      }
      if (o.device_peak_bytes) b.device_peak_bytes = std::max(b.device_peak_bytes.value_or(0), *o.device_peak_bytes);
      b.wall.calls += phase.lap();
      Checked ck = judge_call(p, c, l, against, o, s.image(), s.result());
      if (ck.verdict == Verdict::AC)
        if (auto bad = failed_call(s.after_call(limit))) ck = *bad;
      if (ck.verdict == Verdict::AC)
        if (auto why = slowed_beside(rivals, judge_thread)) ck = {Verdict::FAIL, *why};
      // The rivals' checked calls, read back into the submission's read-back now that it has been checked.
      if (ck.verdict == Verdict::AC && nr > 0) rivals->check_beside(p, c, against, s);
      b.wall.checks += phase.lap();
      steps.check = step.lap();
      if (trace)
        std::fprintf(stderr,
                     "trace run %s %d generate %.1f reference %.1f wait %.1f load %.1f rivals %.1f call %.1f check %.1f\n",
                     c.name.c_str(), run, 1e3 * made.generate_s, 1e3 * made.reference_s, 1e3 * made.waited_s,
                     1e3 * steps.load, 1e3 * steps.rivals, 1e3 * steps.call, 1e3 * steps.check);
      if (ck.verdict == Verdict::AC && faster_than_hardware(o.interval_s, floor_s) && pk.remeasure(&results.done))
        floor_s = physical_floor_s(model.bytes, model.flops, *pk.get());
      if (ck.verdict == Verdict::AC && faster_than_hardware(o.interval_s, floor_s)) {
        const Peaks& peaks = *pk.get();
        char why[400];
        std::snprintf(why, sizeof why,
                      "%.3g s, the judge's whole interval for the call (nothing subtracted), is faster than the "
                      "hardware allows: the case moves %.3g bytes and does %.3g FLOP, at least %.3g s even at %g "
                      "times this machine's copy bandwidth (%.0f GB/s) and %g times its FP32 FMA rate (%.0f "
                      "GFLOP/s); the time reported cannot be real",
                      o.interval_s, model.bytes, model.flops, floor_s, kBytesSlack, peaks.copy_gbps, kFlopsSlack,
                      peaks.fma_gflops);
        ck = {Verdict::FAIL, why};
      }
      if (ck.verdict != Verdict::AC) {
        b.verdict = ck.verdict;
        b.message = "timed run " + std::to_string(run + 1) + " (input set " + std::to_string(set) +
                    (spot ? ", spot-checked" : "") + "): " + ck.message;
        break;
      }
      if (!loop.warming_up()) {
        reported.push_back(o.reported_seconds);
        if (o.device_seconds) on_device.push_back(*o.device_seconds);
        if (o.cpu_seconds && o.body_seconds) cpu_s += *o.cpu_seconds, body_s += *o.body_seconds;
        ready_s += o.ready_seconds.value_or(0);
        fastest_reply = std::min(fastest_reply, o.replied_s);
        for (size_t k = 0; k < nr; ++k)
          if (rivals->active(k)) rival_times[k].push_back(beside[k]);
      }
      bool all = true;  // a ratio only where every active rival was timed this run
      for (size_t k = 0; k < nr; ++k) all = all && (!rivals->active(k) || beside[k] > 0);
      loop.add(o.seconds, all ? beside : std::vector<double>{});
      listener.bench_progress(c, loop.progress());
    }
    looped_s += looping.elapsed();
    b.stats = loop.stats();
    for (size_t k = 0; k < nr; ++k) {
      if (!rivals->active(k) || loop.log_ratios(k).empty()) continue;
      const Stats ratios = Stats::of(loop.log_ratios(k));
      b.paired.push_back({.role = rivals->role(k),
                          .median_log = ratios.median,
                          .ci = ratios.median_ci,
                          .pairs = ratios.runs,
                          .stats = Stats::of(rival_times[k])});
    }
    if (b.verdict == Verdict::AC && !reported.empty()) {
      if (auto forged = disagreement(Stats::of(reported).median, fastest_reply, s.round_trip())) {
        b.verdict = Verdict::FAIL;
        b.message = *forged;
      }
    }
    if (!on_device.empty()) b.device = Stats::of(on_device);
    if (body_s > 0) b.cpus_busy = cpu_s / body_s, b.cpus_waited_for = ready_s / body_s;
    if (pk.get() && b.verdict == Verdict::AC) {
      b.percent_of_peak = percent_of_peak(b.bytes, b.flops, b.stats.median, *pk.get());
      if (*b.percent_of_peak > 100 && pk.remeasure(&results.done))
        b.percent_of_peak = percent_of_peak(b.bytes, b.flops, b.stats.median, *pk.get());
      if (b.device) b.device_percent_of_peak = percent_of_peak(b.bytes, b.flops, b.device->median, *pk.get());
    }
    b.stop = b.verdict == Verdict::AC ? loop.stop_reason() : "failed";
    b.wall.total = total.lap();
    results.done[ci] = b;
    listener.bench_done(b);
    if (b.verdict != Verdict::AC) {  // the first failing case ends the timing
      set_verdict(r, b.verdict, "performance case " + c.name, b.message);
      return;
    }
  }
}

}  // namespace

std::string machine_identity(const Problem& p, const Paths& paths, int threads, int device) {
  MachineInfo m = probe_machine(threads);
  if (p.info().kind == Kind::GPU && !nvcc_path().empty())
    if (const GpuProbe& g = probe_gpu(paths, device); g.usable()) m.gpu = g.device;
  return m.fingerprint();
}

GradedFrom graded_from(const Problem& p, const std::string& source_sha256, const GradeOptions& opt,
                       const Paths& paths) {
  return {.source_sha256 = source_sha256,
          .problem_version = problem_version(p.info().slug),
          .judge_version = judge_version(),
          .seed_id = seed_identity(opt.seed),
          .bench = opt.bench,
          .side_by_side = opt.side_by_side,
          .sandbox = opt.sandbox,
          .isolated = !opt.unisolated,
          .machine = machine_identity(p, paths, opt.threads, opt.device)};
}

Report grade(const Problem& p, const fs::path& src, const GradeOptions& opt, const Paths& paths,
             Listener& listener) {
  // The compiler gets a copy of the source, read here as a regular file and no more than a source's size:
  // in a participant's folder the file itself, elsewhere what a symbolic link of the judge's user's or root's
  // leads to (read_followed_file).
  if (!opt.folder.empty())
    if (const std::string why = not_a_regular_file(src, opt.folder); !why.empty()) throw FileRefused(why);
  const std::string source =
      opt.folder.empty() ? read_followed_file(src, kMaxSourceBytes) : read_regular_file(src, kMaxSourceBytes);
  Stopwatch whole, before_compile;
  // This thread times every call: how it runs now, before any runner starts (judge_slowed()).
  const std::optional<Scheduling> judge_thread = Scheduling::of(0);
  Report r;
  r.problem = p.info().slug;
  r.file = src.string();
  r.source_path = fs::absolute(src).lexically_normal().string();
  r.source_key = file_key(src);
  r.graded_from = graded_from(p, sha256_hex(source), opt, paths);
  r.participant = opt.participant;
  if (!opt.participant.empty()) r.graded_at = utc_now();
  if (opt.unisolated)
    r.isolation = "none: graded with --unsafe-no-isolation, as the judge's own user and without the sandbox";
  r.seed = opt.seed;
  r.seed_secret = opt.seed_secret;
  r.machine = probe_machine(opt.threads);
  r.score.max = p.info().points.total();
  const bool gpu = p.info().kind == Kind::GPU;
  std::string arch = "sm_90";  // without a device: compile for Hopper, to report CE all the same
  const GpuProbe* device = nullptr;
  bool emulate = gpu && opt.emulation == Emulation::On;
  if (gpu && !emulate) {
    const bool can_emulate = opt.emulation == Emulation::Auto && emulator_built();
    if (nvcc_path().empty() && !can_emulate) {
      set_verdict(r, Verdict::SKIP, "", "the judge was built without the CUDA toolkit (no nvcc)");
      return r;
    }
    if (!nvcc_path().empty()) device = &probe_gpu(paths, opt.device);
    if (device && device->usable()) {
      arch = device->device.value("arch", arch);
      r.machine.gpu = device->device;
    } else if (can_emulate) {
      emulate = true;  // no usable GPU here: the functional tests on the CPU
      if (device) r.machine.gpu["error"] = device->error;
    }
  }
  r.emulated = emulate;
  if (emulate) r.machine.gpu["emulated"] = "CPU emulation of an H100/H200-class GPU (sm_90); no GPU was used";
  TempDir tmp;
  const double probed = before_compile.lap();  // the file read, the machine and the GPU probed
  const fs::path lib = compiled_library(tmp.path);
  const bool runnable = !gpu || emulate || (device && device->usable());
  // The runners' options, and what keeps a GPU problem's calls timed with the CPUs awake, the round trips
  // measured below included: their wake-up latency held at 0, and each spinning while a timed call is in
  // flight (judge/timing/wake_latency.h).
  std::vector<std::string> wrapper = opt.runner_prefix;
  if (opt.sandbox)
    for (auto& a : sandbox_wrapper(paths, {.folder = lib.parent_path(), .gpu = gpu, .hidden = opt.hidden,
                                           .tmp_bytes = host_memory_limit(p)}))
      wrapper.push_back(std::move(a));
  std::optional<CpuWakeLatency> awake;
  std::optional<CpuSpinners> spinners;
  if (gpu && !emulate && runnable) awake.emplace();
  if (gpu && !emulate && runnable && !wake_aids_off()) spinners.emplace();
  CacheFlusher flusher;  // one buffer for every runner's timed calls (mapped on the first)
  PinnedImages images(opt.device);  // every runner's images and read-backs, pinned once (judge/isolation/pinned_images.h)
  // The runners' calls of a CPU grade scored side by side, on the same pages (SessionOptions::common_arena).
  // HPCJUDGE_NO_COMMON_ARENA=1 gives each runner its own, to compare.
  const bool beside = opt.bench && !emulate && opt.score && opt.side_by_side && !opt.vendor && opt.only_case.empty();
  std::optional<SharedArena> common;
  if (!gpu && beside && !std::getenv("HPCJUDGE_NO_COMMON_ARENA")) common.emplace();
  const SessionOptions session_options{.library = lib,
                                       .threads = r.machine.threads,
                                       .device = opt.device,
                                       .wrapper = wrapper,
                                       .memory_limit = host_memory_limit(p),
                                       .emulate = emulate,
                                       .keep_awake = spinners ? &*spinners : nullptr,
                                       .flusher = &flusher,
                                       .images = &images,
                                       .under_tool = !opt.runner_prefix.empty(),
                                       .hidden = hidden_from_runners(paths, opt),
                                       .common_arena = common ? &*common : nullptr};
  // The runners started while the compiler runs (judge/grading/early_runners.h): the performance cases'
  // own runner where the functional tests run first, the rivals where the scale is cached and the grade scored.
  const bool tests = opt.only_case.empty() && opt.functional_tests;
  const bool timed_apart = opt.bench && !emulate && tests;
  // A GPU grade's largest image and read-back, pinned beside the compile: of the functional tests it runs and
  // of its performance cases.
  LargestLayout pinned;
  if (runnable && gpu && !emulate) {
    std::vector<Case> cases = tests ? p.tests() : std::vector<Case>{};
    if (opt.bench)
      for (const Case& c : timed_cases(p, opt, r.machine)) cases.push_back(c);
    pinned = largest_layout(p, cases);
  }
  std::optional<EarlyRunners> early;
  if (runnable)
    early.emplace(p, paths, opt, session_options,
                  EarlyRunnersPlan{.timed = timed_apart,
                                   .tests_timed = opt.bench && !emulate && !timed_apart,
                                   .rivals_scale = beside ? cached_scale_in_use(p, paths, r.machine) : std::nullopt,
                                   .arch = arch,
                                   .machine_fingerprint = r.machine.fingerprint(),
                                   .pinned = pinned});
  const CompileResult cr = compile_submission_cached(p, paths, source, tmp.path,
                                                     {.arch = arch, .vendor = opt.vendor, .sandbox = opt.sandbox,
                                                      .emulate = emulate, .hidden = opt.hidden,
                                                      .source_name = src.string()},
                                                     r.machine.fingerprint());
  Stopwatch joining;
  if (early) {
    try {
      early->join(listener);
    } catch (...) {
      if (cr.ok) throw;  // else the compile's error is the verdict
    }
    if (!cr.ok) early->end();
  }
  const double joined_s = joining.elapsed();
  r.compiled = cr.ok;
  r.compile_command = cr.command;
  r.compile_log = cr.log;
  r.compile_seconds = cr.seconds;
  r.compile_cached = cr.cached;
  if (gpu && !emulate) r.compile_arch = arch;
  r.kernels = cr.kernels;
  listener.compiled(r);
  if (!cr.ok) {
    // Where the runner launched beside the compile could not start either, the set-up is at fault (a sandbox
    // that cannot start fails the compiler's alike): JE with the runner's cause, not the file's CE.
    const CallOutcome* launch = early && early->tests ? &early->tests->launched() : nullptr;
    if (launch && launch->judge_fault) set_verdict(r, Verdict::JE, "", launch->message);
    else set_verdict(r, Verdict::CE, "", cr.message);
    return r;
  }
  if (gpu && !emulate && !device->usable()) {
    set_verdict(r, Verdict::SKIP, "", no_device_message(*device));
    r.machine.gpu["error"] = device->error;  // the CUDA runtime's own words, for the --json report
    r.score.note = "your file compiles; to run and score it, judge it on a machine with an NVIDIA GPU "
                   "(a CPU problem runs here: ./judge/judge list)";
    return r;
  }
  // Where the grade's wall time goes after compiling (timing.wall_s), phase by phase; `started_beside`, the
  // wait past the compile for the runners started beside it.
  nlohmann::json wall = {{"probe", probed}, {"compile", r.compile_seconds}, {"started_beside", joined_s}};
  Stopwatch phase;
  {
    Session& s = *early->tests;
    const CallOutcome started = s.ready(60);
    std::string extra_output;  // what the performance cases' runner printed
    size_t extra_output_bytes = 0;
    const auto trip = [](const RoundTrip& t) {
      return nlohmann::json{
          {"median_s", t.median_s}, {"subtracted_s", t.subtracted_s}, {"noise_s", t.noise_s}, {"samples", t.samples}};
    };
    r.timing = {{"clock", "judge"},
                {"round_trip_tests", trip(s.round_trip(false))},
                {"buffers", s.buffers()},
                {"judge_held_device_buffers", s.judge_held()}};
    if (s.round_trip(true).samples > 0) r.timing["round_trip_timed"] = trip(s.round_trip(true));
    if (!s.device_work().empty()) r.timing["device_work"] = s.device_work();
    if (awake) r.timing["cpus_kept_awake"] = awake->held();
    if (awake) r.timing["cpus_spinning_in_calls"] = spinners ? spinners->count() : 0;
    wall["runner"] = phase.lap();  // the runner started, its round trips measured
    if (auto bad = failed_call(started)) {
      set_verdict(r, bad->verdict, "", bad->message);
    } else {
      // A profile runs one performance case only: a test's launches would be profiled instead. A reference
      // timed for the scale has its functional tests in make test (GradeOptions::functional_tests): `tests`.
      // Under emulation the emulator's own checks (races, barriers, bounds) ran on every access already.
      const bool sanitizers = gpu && !emulate && tests;
      std::future<std::string> races;  // racecheck and synccheck, beside the functional tests
      if (sanitizers && wants_race_check(p)) {
        listener.note("compute-sanitizer racecheck and synccheck on the small tests, beside the tests...");
        races = std::async(std::launch::async, [&, threads = r.machine.threads] {
          return race_check(p, lib, opt, paths, threads);
        });
      }
      if (tests) run_tests(p, opt, paths, s, r, listener);
      wall["tests"] = phase.lap();
      // A race is RE, worse than the WA it may also cause: it counts then too (the wait for the tools, past the
      // tests, is wall_s.sanitizers).
      if (races.valid()) {
        const std::string why = races.get();
        if (!why.empty() && (r.verdict == Verdict::AC || r.verdict == Verdict::WA)) set_verdict(r, Verdict::RE, "", why);
      }
      if (sanitizers && opt.sanitize && (r.verdict == Verdict::AC || r.verdict == Verdict::WA))
        run_memcheck(p, lib, opt, paths, r, listener);
      if (sanitizers) wall["sanitizers"] = phase.lap();
      // The performance cases in a runner of their own, started afresh as each rival's is (a run without
      // functional tests keeps the first): no process's history, such as its heap's thresholds and pages
      // from the functional tests' sizes, differs between the two sides of a ratio.
      // Launched beside the compile, it is made ready (its round trips measured, the submission loaded) once
      // the tests' runner has ended (its memory and, on a GPU, its CUDA context) and the judge's memory for
      // it is freed.
      std::unique_ptr<Session> fresh;
      if (r.verdict == Verdict::AC && timed_apart) {
        s.release();
        fresh = std::move(early->timed);
        if (auto bad = failed_call(fresh->ready(60))) set_verdict(r, bad->verdict, "performance cases", bad->message);
        else r.timing["round_trip_timed"] = trip(fresh->round_trip(true));
        wall["performance_runner"] = phase.lap();
      }
      Session& timed = fresh ? *fresh : s;
      // The functional tests' calls ran the submission's code while the judge waited: the scale may be timed
      // next, and is kept for later grades.
      if (r.verdict == Verdict::AC && opt.bench && !emulate)
        if (auto why = slowed_beside(nullptr, judge_thread)) set_verdict(r, Verdict::FAIL, "", *why);
      if (r.verdict == Verdict::AC && opt.bench && !emulate) {
        if (gpu) r.machine.gpu["sensors_before_bench"] = timed.sensors();
        PeaksInUse peaks(paths, r, p.info().kind, opt.device);
        // The references beside the submission, when this grade is scored
        // (not while the references themselves, a vendor anchor or a profile run).
        std::unique_ptr<Rivals> rivals = std::move(early->rivals);
        if (beside && !rivals) {
          const Scale cached = load_or_measure_scale(p, paths, opt, r.machine, listener);
          wall["scale"] = phase.lap();  // read from the cache, or the references timed now
          if (cached.error.empty()) {
            rivals = std::make_unique<Rivals>(p, paths, opt, session_options, cached);
            rivals->start(p, paths, opt, arch, r.machine.fingerprint(), listener);
          }
        }
        wall["peaks_and_rivals"] = phase.lap();  // the machine's peaks, the references compiled and started
        if (rivals) rivals->late_work_as(timed);
        if (tracing()) {  // which runner is which side, for the `trace call` lines (named by the runner's pid)
          std::fprintf(stderr, "trace runner %d submission\n", timed.runner_pid());
          for (size_t k = 0; rivals && k < rivals->size(); ++k)
            if (rivals->active(k))
              std::fprintf(stderr, "trace runner %d %s\n", rivals->session(k).runner_pid(), rivals->role(k).c_str());
        }
        r.timing["late_work_allowance_s"] = 1e-9 * static_cast<double>(timed.late_work_ns());
        // The grade's wall time so far, less a scale timed now (a first grade's, not the grade's own work).
        const double scale_s = wall.value("scale", 0.0);
        // What the rest of the machine does during the timing loops (the noise a wide interval names: score.cpp)
        const std::optional<CpuSnapshot> cpu_before = cpu_snapshot(getpid());
        run_bench(p, opt, paths, r.machine, peaks, timed, rivals.get(), judge_thread, r, listener,
                  [&] { return whole.elapsed() - scale_s; });
        wall["performance"] = phase.lap();
        if (rivals) r.timing["side_by_side"] = rivals->notes();
        if (!timed.device_work().empty()) r.timing["device_work"] = timed.device_work();  // the timed runner's
        if (gpu) r.machine.gpu["sensors_after_bench"] = timed.sensors();
        if (auto after = cpu_before ? cpu_snapshot(getpid()) : std::nullopt)
          r.timing["cpu_beside_timing"] = cpu_activity(*cpu_before, *after).to_json();
        std::vector<Session*> ending = rivals ? rivals->sessions() : std::vector<Session*>{};
        ending.push_back(&timed);
        const Ended ended = finish_together(ending);
        rivals.reset();
        wall["runners_ended"] = phase.lap();  // the timed runner's and the rivals', their memory freed
        wall["runners_exited"] = ended.exited_s;  // of which: the runners' exits
        wall["memory_freed"] = ended.freed_s;     // and the judge's memory for them
      }
      if (fresh) {
        fresh->finish();
        extra_output = fresh->output();
        extra_output_bytes = fresh->output_bytes();
      }
    }
    s.release();  // finished first
    for (const TestResult& t : r.tests)
      if (t.device_peak_bytes) r.device_peak_bytes = std::max(r.device_peak_bytes.value_or(0), *t.device_peak_bytes);
    for (const BenchResult& b : r.bench)
      if (b.device_peak_bytes) r.device_peak_bytes = std::max(r.device_peak_bytes.value_or(0), *b.device_peak_bytes);
    r.output = s.output() + extra_output;
    r.output_bytes = s.output_bytes() + extra_output_bytes;
    if (spinners) r.timing["cpus_spinning_s"] = spinners->held_s();  // the calls' and pings' spans, in all
    early->end();  // what the grade did not use (a submission that failed its tests: its timed runner, the rivals)
  }
  wall["ended"] = phase.lap();  // the runners' exits and the judge's memory for them, past the timed cases'
  if (opt.score) {
    GradeOptions scored = opt;
    if (emulate) scored.bench = false;
    score_report(p, paths, scored, r, listener);
    if (emulate && r.verdict == Verdict::AC)
      r.score.note = "CPU emulation: correctness points only; the performance score needs a GPU (emulated code is "
                     "not timed: its speed says nothing of the GPU's)";
  }
  wall["score"] = phase.lap();
  wall["total"] = whole.lap();
  r.timing["wall_s"] = wall;
  return r;
}

bool emulator_built() {
#ifdef HPCJUDGE_HAVE_EMULATOR
  return true;
#else
  return false;
#endif
}

}  // namespace hpcjudge
