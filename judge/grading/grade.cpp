#include "judge/grading/grade.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <optional>

#include <sstream>

#include <sched.h>
#include <unistd.h>

#include "judge/estimate/count_case.h"
#include "judge/estimate/estimate_case.h"
#include "judge/estimate/grade_estimate.h"
#include "judge/machine/calibration.h"
#include "judge/machine/cpu_activity.h"
#include "judge/grading/compile.h"
#include "judge/grading/early_runners.h"
#include "judge/files.h"
#include "judge/machine/gpu.h"
#include "judge/timing/wake_latency.h"
#include "sdk/timing.h"
#include "judge/timing/bench_runner.h"
#include "judge/timing/budget.h"
#include "judge/timing/loop.h"
#include "sdk/verify.h"
#include "judge/grading/reference_cache.h"
#include "judge/isolation/sandbox.h"
#include "judge/isolation/scheduling.h"
#include "judge/timing/score.h"
#include "judge/grading/inputs_ahead.h"
#include "judge/grading/laid_case.h"
#include "judge/timing/peaks_in_use.h"
#include "judge/timing/rivals.h"
#include "judge/grading/sanitizer_output.h"
#include "judge/isolation/session.h"
#include "judge/reports/text.h"
#include "judge/sha256.h"
#include "judge/verdicts/forgery.h"
#include "judge/verdicts/judge_error.h"
#include "judge/verdicts/memory_limit.h"
#include "judge/verdicts/report_verdict.h"
#include "judge/verdicts/sanitizers.h"
#include "judge/verdicts/skip.h"
#include "judge/verdicts/time_limit.h"
#include "judge/versions.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

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
  const double limit = test_call_limit_s(p.info(), emulated);
  const CallOutcome o = s.call(l.sig, l.layout, {.timeout_s = limit, .device_memory_limit = l.device_memory_limit});
  const double called = step.lap();
  Checked ck = judge_call(p, c, l, {&expected}, o, s.image(), s.result());
  if (s.alive() && after_call_counts(ck, false))
    if (auto bad = failed_call(s.after_call(limit))) ck = *bad;
  // HPCJUDGE_TRACE: where a functional test's wall time goes, in ms (the judge's, never a score's).
  if (tracing())
    std::fprintf(stderr, "trace test %s lay-out %.1f generate %.1f reference %.1f call %.1f check %.1f\n",
                 c.name.c_str(), 1e3 * laid, 1e3 * generated, 1e3 * referenced, 1e3 * called, 1e3 * step.lap());
  if (emulated && opt.sanitize) ck = emulated_memcheck(ck, o.device_held_bytes);  // judge/verdicts/sanitizers.h
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

// The functional tests.
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
    if (!s.alive() || ends_the_tests(t.verdict)) return;
    spent += t.seconds;
    if (auto why = tests_past_limit(spent, t.name, p.info(), r.emulated)) {
      set_verdict(r, Verdict::TLE, "", *why);
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
                                            .tmp_bytes = host_memory_limit(p, opt.memory_cap)})
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
    if (!whys[k].empty()) return race_message(whys[k], tools[k]);
  return "";
}

// --sanitize: memcheck on every functional test, after them (its runs of the large tests beside the tests' own
// would hold the device memory of both at once).
void run_memcheck(const Problem& p, const fs::path& lib, const GradeOptions& opt, const Paths& paths, Report& r,
                  Listener& listener) {
  listener.note("compute-sanitizer memcheck on the functional tests...");
  const std::string why = sanitize(p, p.tests(), lib, opt, paths, r.machine.threads,
                                   {"--tool", "memcheck", "--leak-check", "full"});
  if (!why.empty()) set_verdict(r, Verdict::RE, "", memcheck_message(why));
}

// The source a grade compiles, read here as a regular file and no more than a source's size: in a participant's
// folder the file itself, elsewhere what a symbolic link of the judge's user's or root's leads to
// (read_followed_file).
std::string read_source(const fs::path& src, const GradeOptions& opt) {
  if (!opt.folder.empty())
    if (const std::string why = not_a_regular_file(src, opt.folder); !why.empty()) throw FileRefused(why);
  return opt.folder.empty() ? read_followed_file(src, kMaxSourceBytes) : read_regular_file(src, kMaxSourceBytes);
}

// A grade's report before anything runs: the file, the problem, the seed, the machine.
Report new_report(const Problem& p, const fs::path& src, const std::string& source, const GradeOptions& opt,
                  const Paths& paths) {
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
  r.settings = settings::Settings::at_start().grade_changing();
  r.machine = probe_machine(opt.threads);
  r.score.max = p.info().points.total();
  return r;
}

// Where a grade's code runs: a CPU problem on the CPU; a GPU problem on the GPU probed, or under CPU emulation.
struct Target {
  bool gpu = false;
  std::string arch = "sm_90";  // without a device: compile for Hopper, to report CE all the same
  const GpuProbe* device = nullptr;
  bool emulate = false;
  bool runnable() const { return !gpu || emulate || (device && device->usable()); }
  bool on_device() const { return gpu && !emulate; }  // the problem's own GPU, usable or not
};

// The target of a grade of p here, into the report's machine; none (SKIP) where a GPU problem can neither
// compile nor be emulated.
std::optional<Target> choose_target(const Problem& p, const GradeOptions& opt, const Paths& paths, Report& r) {
  Target t;
  t.gpu = p.info().kind == Kind::GPU;
  t.emulate = t.gpu && opt.emulation == Emulation::On;
  if (t.gpu && !t.emulate) {
    const bool can_emulate = opt.emulation == Emulation::Auto && emulator_built();
    if (nvcc_path().empty() && !can_emulate) {
      skip_without_nvcc(r);
      return std::nullopt;
    }
    if (!nvcc_path().empty()) t.device = &probe_gpu(paths, opt.device);
    if (t.device && t.device->usable()) {
      t.arch = t.device->device.value("arch", t.arch);
      r.machine.gpu = t.device->device;
    } else if (can_emulate) {
      t.emulate = true;  // no usable GPU here: the functional tests on the CPU
      if (t.device) r.machine.gpu["error"] = t.device->error;
    }
  }
  r.emulated = t.emulate;
  if (t.emulate) r.machine.gpu["emulated"] = "CPU emulation of an H100/H200-class GPU (sm_90); no GPU was used";
  return t;
}

nlohmann::json round_trip_json(const RoundTrip& t) {
  return nlohmann::json{
      {"median_s", t.median_s}, {"subtracted_s", t.subtracted_s}, {"noise_s", t.noise_s}, {"samples", t.samples}};
}

// One grade: its report, its target, the runners' shared aids, and the grade's flow in steps.
class Grader {
 public:
  Grader(const Problem& p, const fs::path& src, const GradeOptions& opt, const Paths& paths, Listener& listener)
      : p_(p), src_(src), opt_(opt), paths_(paths), listener_(listener) {}
  Report run();

 private:
  void prepare_runners();
  void start_early_runners();
  bool compiled(const CompileResult& cr);
  void run_runners();
  void run_functional_tests(Session& s);
  Session& timed_runner(Session& s, std::unique_ptr<Session>& fresh);
  void time_cases(Session& timed);
  std::unique_ptr<Rivals> rivals_for_timing();
  void end_timing(Session& timed, std::unique_ptr<Rivals>& rivals, const std::optional<CpuSnapshot>& cpu_before);
  void record_outputs(const Session& s, const std::string& extra_output, size_t extra_output_bytes);
  void score();
  void estimate();

  const Problem& p_;
  const fs::path& src_;
  const GradeOptions& opt_;
  const Paths& paths_;
  Listener& listener_;
  Report r_;
  Stopwatch whole_, phase_;
  std::optional<Scheduling> judge_thread_;  // how the judge's timing thread ran before any runner (judge_slowed())
  Target t_;
  nlohmann::json wall_;  // where the grade's wall time goes (timing.wall_s), phase by phase
  bool tests_ = false, timed_apart_ = false, beside_ = false;
  std::optional<TempDir> tmp_;
  fs::path lib_;
  std::optional<CpuWakeLatency> awake_;
  std::optional<CpuSpinners> spinners_;
  std::optional<CacheFlusher> flusher_;  // one buffer for every runner's timed calls (mapped on the first)
  std::optional<PinnedImages> images_;   // every runner's images and read-backs, pinned once (pinned_images.h)
  std::optional<SharedArena> common_;
  std::optional<SessionOptions> session_options_;
  std::optional<EarlyRunners> early_;
  // An emulated, scored grade: the cases its estimate uses, and the submission's counts on the emulated one.
  std::optional<EstimateCases> estimate_cases_;
  CaseCounts counts_{std::nullopt, "it was not run"};
  std::string source_;  // the submission's text (read once; the estimate compiles it with nvcc too)
};

Report Grader::run() {
  source_ = read_source(src_, opt_);
  const std::string& source = source_;
  whole_ = Stopwatch();
  Stopwatch before_compile;
  // This thread times every call: how it runs now, before any runner starts (judge_slowed()).
  judge_thread_ = Scheduling::of(0);
  r_ = new_report(p_, src_, source, opt_, paths_);
  const std::optional<Target> target = choose_target(p_, opt_, paths_, r_);
  if (!target) return std::move(r_);
  t_ = *target;
  tmp_.emplace();
  const double probed = before_compile.lap();  // the file read, the machine and the GPU probed
  lib_ = compiled_library(tmp_->path);
  prepare_runners();
  start_early_runners();
  const CompileResult cr = compile_submission_cached(p_, paths_, source, tmp_->path,
                                                     {.arch = t_.arch, .vendor = opt_.vendor, .sandbox = opt_.sandbox,
                                                      .emulate = t_.emulate, .hidden = opt_.hidden,
                                                      .source_name = src_.string()},
                                                     r_.machine.fingerprint());
  Stopwatch joining;
  if (early_) {
    try {
      early_->join(listener_);
    } catch (...) {
      if (cr.ok) throw;  // else the compile's error is the verdict
    }
    if (!cr.ok) early_->end();
  }
  const double joined_s = joining.elapsed();
  if (!compiled(cr)) return std::move(r_);
  // Where the grade's wall time goes after compiling (timing.wall_s), phase by phase; `started_beside`, the
  // wait past the compile for the runners started beside it.
  wall_ = {{"probe", probed}, {"compile", r_.compile_seconds}, {"started_beside", joined_s}};
  phase_ = Stopwatch();
  run_runners();
  wall_["ended"] = phase_.lap();  // the runners' exits and the judge's memory for them, past the timed cases'
  score();
  wall_["score"] = phase_.lap();
  wall_["total"] = whole_.lap();
  r_.timing["wall_s"] = wall_;
  return std::move(r_);
}

// The runners' options, and what keeps a GPU problem's calls timed with the CPUs awake, the round trips
// measured by the runners included: their wake-up latency held at 0, and each spinning while a timed call is in
// flight (judge/timing/wake_latency.h).
void Grader::prepare_runners() {
  std::vector<std::string> wrapper = opt_.runner_prefix;
  if (opt_.sandbox)
    for (auto& a : sandbox_wrapper(paths_, {.folder = lib_.parent_path(), .gpu = t_.gpu, .hidden = opt_.hidden,
                                            .tmp_bytes = host_memory_limit(p_, opt_.memory_cap)}))
      wrapper.push_back(std::move(a));
  if (t_.on_device() && t_.runnable()) awake_.emplace();
  if (t_.on_device() && t_.runnable()) spinners_.emplace();
  flusher_.emplace();
  images_.emplace(opt_.device);
  // The runners' calls of a CPU grade scored side by side, on the same pages (SessionOptions::common_arena).
  beside_ = opt_.bench && !t_.emulate && opt_.score && opt_.side_by_side && !opt_.vendor && opt_.only_case.empty();
  if (!t_.gpu && beside_) common_.emplace();
  session_options_ = SessionOptions{.library = lib_,
                                    .threads = r_.machine.threads,
                                    .device = opt_.device,
                                    .wrapper = wrapper,
                                    .memory_limit = host_memory_limit(p_, opt_.memory_cap),
                                    .emulate = t_.emulate,
                                    .keep_awake = spinners_ ? &*spinners_ : nullptr,
                                    .flusher = &*flusher_,
                                    .images = &*images_,
                                    .under_tool = !opt_.runner_prefix.empty(),
                                    .hidden = hidden_from_runners(paths_, opt_),
                                    .common_arena = common_ ? &*common_ : nullptr};
}

// The runners started while the compiler runs (judge/grading/early_runners.h): the performance cases' own
// runner where the functional tests run first, the rivals where the scale is cached and the grade scored.
void Grader::start_early_runners() {
  tests_ = opt_.only_case.empty() && opt_.functional_tests;
  timed_apart_ = opt_.bench && !t_.emulate && tests_;
  // A GPU grade's largest image and read-back, pinned beside the compile: of the functional tests it runs and
  // of its performance cases.
  LargestLayout pinned;
  if (t_.runnable() && t_.on_device()) {
    std::vector<Case> cases = tests_ ? p_.tests() : std::vector<Case>{};
    if (opt_.bench)
      for (const Case& c : timed_cases(p_, opt_, r_.machine)) cases.push_back(c);
    pinned = largest_layout(p_, cases);
  }
  if (t_.runnable())
    early_.emplace(p_, paths_, opt_, *session_options_,
                   EarlyRunnersPlan{.timed = timed_apart_,
                                    .tests_timed = opt_.bench && !t_.emulate && !timed_apart_,
                                    .rivals_scale = beside_ ? cached_scale_in_use(p_, paths_, r_.machine) : std::nullopt,
                                    .arch = t_.arch,
                                    .machine_fingerprint = r_.machine.fingerprint(),
                                    .pinned = pinned});
}

// The compile into the report; false where the grade ends here (CE, JE, SKIP).
bool Grader::compiled(const CompileResult& cr) {
  r_.compiled = cr.ok;
  r_.compile_command = cr.command;
  r_.compile_log = cr.log;
  r_.compile_seconds = cr.seconds;
  r_.compile_cached = cr.cached;
  if (t_.on_device()) r_.compile_arch = t_.arch;
  r_.kernels = cr.kernels;
  listener_.compiled(r_);
  if (!cr.ok) {
    const CallOutcome* launch = early_ && early_->tests ? &early_->tests->launched() : nullptr;
    const Verdict v = failed_compile_verdict(launch);  // JE where the runner could not start either
    set_verdict(r_, v, "", v == Verdict::JE ? launch->message : cr.message);
    return false;
  }
  if (t_.on_device() && !t_.device->usable()) {
    skip_without_device(r_, *t_.device);
    return false;
  }
  return true;
}

// The functional tests' runner made ready, the tests and sanitizers, then the performance cases; the runners
// ended, their output and peaks into the report.
void Grader::run_runners() {
  Session& s = *early_->tests;
  const CallOutcome started = s.ready(60);
  r_.timing = {{"clock", "judge"},
               {"round_trip_tests", round_trip_json(s.round_trip(false))},
               {"buffers", s.buffers()},
               {"judge_held_device_buffers", s.judge_held()}};
  if (s.round_trip(true).samples > 0) r_.timing["round_trip_timed"] = round_trip_json(s.round_trip(true));
  if (!s.device_work().empty()) r_.timing["device_work"] = s.device_work();
  if (awake_) r_.timing["cpus_kept_awake"] = awake_->held();
  if (awake_) r_.timing["cpus_spinning_in_calls"] = spinners_ ? spinners_->count() : 0;
  wall_["runner"] = phase_.lap();  // the runner started, its round trips measured
  std::string extra_output;  // what the performance cases' runner printed
  size_t extra_output_bytes = 0;
  if (auto bad = failed_call(started)) {
    set_verdict(r_, bad->verdict, "", bad->message);
  } else {
    run_functional_tests(s);
    std::unique_ptr<Session> fresh;
    Session& timed = timed_runner(s, fresh);
    // The functional tests' calls ran the submission's code while the judge waited: the scale may be timed
    // next, and is kept for later grades.
    if (r_.verdict == Verdict::AC && opt_.bench && !t_.emulate)
      if (auto why = slowing_forgery(judge_slowed(judge_thread_), std::nullopt))
        set_verdict(r_, Verdict::FAIL, "", *why);
    if (r_.verdict == Verdict::AC && opt_.bench && !t_.emulate) time_cases(timed);
    if (fresh) {
      fresh->finish();
      extra_output = fresh->output();
      extra_output_bytes = fresh->output_bytes();
    }
  }
  s.release();  // finished first
  record_outputs(s, extra_output, extra_output_bytes);
  if (spinners_) r_.timing["cpus_spinning_s"] = spinners_->held_s();  // the calls' and pings' spans, in all
  early_->end();  // what the grade did not use (a submission that failed its tests: its timed runner, the rivals)
}

// A profile runs one performance case only: a test's launches would be profiled instead. A reference timed for
// the scale has its functional tests in make test (GradeOptions::functional_tests): `tests_`. Under emulation
// the emulator's own checks (races, barriers, bounds) ran on every access already.
void Grader::run_functional_tests(Session& s) {
  const bool sanitizers = t_.on_device() && tests_;
  std::future<std::string> races;  // racecheck and synccheck, beside the functional tests
  if (sanitizers && wants_race_check(p_)) {
    listener_.note("compute-sanitizer racecheck and synccheck on the small tests, beside the tests...");
    races = std::async(std::launch::async, [&, threads = r_.machine.threads] {
      return race_check(p_, lib_, opt_, paths_, threads);
    });
  }
  // An emulated grade estimates the GPU where a measured one would time it (not under --no-bench).
  if (t_.emulate && opt_.bench && opt_.score) estimate_cases_ = estimate_cases(p_);
  if (tests_) run_tests(p_, opt_, paths_, s, r_, listener_);
  wall_["tests"] = phase_.lap();
  // The estimate's counted call, apart from the tests: a verdict is never decided by a call counting slowed down.
  if (estimate_cases_ && r_.verdict == Verdict::AC && s.alive()) {
    listener_.note("estimating the GPU's time: the submission counted under emulation on " +
                   estimate_cases_->emulated.name);
    counts_ = count_case(p_, paths_, opt_, s, estimate_cases_->emulated);
    wall_["estimate_counted"] = phase_.lap();
  }
  // A race is RE, worse than the WA it may also cause: it counts then too (the wait for the tools, past the
  // tests, is wall_s.sanitizers).
  if (races.valid()) {
    const std::string why = races.get();
    if (!why.empty() && open_to_sanitizers(r_.verdict)) set_verdict(r_, Verdict::RE, "", why);
  }
  if (sanitizers && opt_.sanitize && open_to_sanitizers(r_.verdict))
    run_memcheck(p_, lib_, opt_, paths_, r_, listener_);
  if (sanitizers) wall_["sanitizers"] = phase_.lap();
}

// The performance cases in a runner of their own, started afresh as each rival's is (a run without functional
// tests keeps the first): no process's history, such as its heap's thresholds and pages from the functional
// tests' sizes, differs between the two sides of a ratio. Launched beside the compile, it is made ready (its
// round trips measured, the submission loaded) once the tests' runner has ended (its memory and, on a GPU, its
// CUDA context) and the judge's memory for it is freed.
Session& Grader::timed_runner(Session& s, std::unique_ptr<Session>& fresh) {
  if (r_.verdict != Verdict::AC || !timed_apart_) return s;
  s.release();
  fresh = std::move(early_->timed);
  if (auto bad = failed_call(fresh->ready(60))) set_verdict(r_, bad->verdict, "performance cases", bad->message);
  else r_.timing["round_trip_timed"] = round_trip_json(fresh->round_trip(true));
  wall_["performance_runner"] = phase_.lap();
  return *fresh;
}

// The references beside the submission, when this grade is scored (not while the references themselves, a
// vendor anchor or a profile run): started beside the compile, or here once the scale is read or timed.
std::unique_ptr<Rivals> Grader::rivals_for_timing() {
  std::unique_ptr<Rivals> rivals = std::move(early_->rivals);
  if (beside_ && !rivals) {
    const Scale cached = load_or_measure_scale(p_, paths_, opt_, r_.machine, listener_);
    wall_["scale"] = phase_.lap();  // read from the cache, or the references timed now
    if (cached.error.empty()) {
      rivals = std::make_unique<Rivals>(p_, paths_, opt_, *session_options_, cached);
      rivals->start(p_, paths_, opt_, t_.arch, r_.machine.fingerprint(), listener_);
    }
  }
  return rivals;
}

void Grader::time_cases(Session& timed) {
  if (t_.gpu) r_.machine.gpu["sensors_before_bench"] = timed.sensors();
  PeaksInUse peaks(paths_, r_, p_.info().kind, opt_.device);
  std::unique_ptr<Rivals> rivals = rivals_for_timing();
  wall_["peaks_and_rivals"] = phase_.lap();  // the machine's peaks, the references compiled and started
  if (rivals) rivals->late_work_as(timed);
  if (tracing()) {  // which runner is which side, for the `trace call` lines (named by the runner's pid)
    std::fprintf(stderr, "trace runner %d submission\n", timed.runner_pid());
    for (size_t k = 0; rivals && k < rivals->size(); ++k)
      if (rivals->active(k))
        std::fprintf(stderr, "trace runner %d %s\n", rivals->session(k).runner_pid(), rivals->role(k).c_str());
  }
  r_.timing["late_work_allowance_s"] = 1e-9 * static_cast<double>(timed.late_work_ns());
  // The grade's wall time so far, less a scale timed now (a first grade's, not the grade's own work).
  const double scale_s = wall_.value("scale", 0.0);
  // What the rest of the machine does during the timing loops (the noise a wide interval names: score.cpp)
  const std::optional<CpuSnapshot> cpu_before = cpu_snapshot(getpid());
  run_bench({.p = p_,
             .opt = opt_,
             .paths = paths_,
             .peaks = peaks,
             .s = timed,
             .rivals = rivals.get(),
             .judge_thread = judge_thread_,
             .r = r_,
             .listener = listener_,
             .grade_s = [&] { return whole_.elapsed() - scale_s; }});
  wall_["performance"] = phase_.lap();
  end_timing(timed, rivals, cpu_before);
}

// After the timed cases: the rivals' notes, the runners' state, and every timed runner ended together.
void Grader::end_timing(Session& timed, std::unique_ptr<Rivals>& rivals, const std::optional<CpuSnapshot>& cpu_before) {
  if (rivals) r_.timing["side_by_side"] = rivals->notes();
  if (!timed.device_work().empty()) r_.timing["device_work"] = timed.device_work();  // the timed runner's
  if (t_.gpu) r_.machine.gpu["sensors_after_bench"] = timed.sensors();
  if (auto after = cpu_before ? cpu_snapshot(getpid()) : std::nullopt)
    r_.timing["cpu_beside_timing"] = cpu_activity(*cpu_before, *after).to_json();
  std::vector<Session*> ending = rivals ? rivals->sessions() : std::vector<Session*>{};
  ending.push_back(&timed);
  const Ended ended = finish_together(ending);
  rivals.reset();
  wall_["runners_ended"] = phase_.lap();  // the timed runner's and the rivals', their memory freed
  wall_["runners_exited"] = ended.exited_s;  // of which: the runners' exits
  wall_["memory_freed"] = ended.freed_s;     // and the judge's memory for them
}

// The runners' output (the functional tests', then the performance cases' own runner's) and device peaks.
void Grader::record_outputs(const Session& s, const std::string& extra_output, size_t extra_output_bytes) {
  for (const TestResult& t : r_.tests)
    if (t.device_peak_bytes) r_.device_peak_bytes = std::max(r_.device_peak_bytes.value_or(0), *t.device_peak_bytes);
  for (const BenchResult& b : r_.bench)
    if (b.device_peak_bytes) r_.device_peak_bytes = std::max(r_.device_peak_bytes.value_or(0), *b.device_peak_bytes);
  r_.output = s.output() + extra_output;
  r_.output_bytes = s.output_bytes() + extra_output_bytes;
}

void Grader::score() {
  if (!opt_.score) return;
  GradeOptions scored = opt_;
  if (t_.emulate) scored.bench = false;
  score_report(p_, scored, r_, [&] { return load_or_measure_scale(p_, paths_, scored, r_.machine, listener_); });
  if (t_.emulate && r_.verdict == Verdict::AC)
    r_.score.note = "CPU emulation: correctness points only; the performance score needs a GPU (emulated code is "
                    "not timed: its speed says nothing of the GPU's)";
  estimate();
}

// An emulated grade's estimate of the GPU's time and score (judge/estimate/), for an AC submission: never its score.
void Grader::estimate() {
  if (!estimate_cases_ || r_.verdict != Verdict::AC) return;
  r_.estimate = estimate_grade(p_, paths_, opt_, *session_options_, r_.machine.fingerprint(), *estimate_cases_,
                               counts_, {source_, src_.string()}, listener_);
  wall_["estimate"] = phase_.lap();
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
  return Grader(p, src, opt, paths, listener).run();
}

Scale load_or_measure_scale(const Problem& p, const Paths& paths, const GradeOptions& opt, const MachineInfo& m,
                            Listener& listener) {
  std::string busy;
  if (auto cached = cached_scale_in_use(p, paths, m, &busy)) return *cached;
  if (!busy.empty()) listener.note(busy);
  GradeOptions ref = opt;
  ref.bench = true;
  ref.score = false;
  ref.functional_tests = false;  // make test's (reference/<slug>/<file>); the timed outputs are checked
  ref.folder.clear();  // the judge's own files, never a participant's: no participant's folder holds them
  // Only the references' timing loops' progress reaches the listener: their results are not the grade's.
  struct ProgressOnly : Listener {
    Listener& to;
    explicit ProgressOnly(Listener& l) : to(l) {}
    void bench_progress(const Case& c, const TimingLoop::Progress& pr) override { to.bench_progress(c, pr); }
  } progress(listener);
  if (busy.empty())
    listener.note("the first grade of " + p.info().slug + " on this machine is slower: timing this machine's scale "
                  "once (the baseline and the fast reference solutions, which the score compares your times with); "
                  "later grades reuse it");
  Report rep[2];
  const char* roles[2] = {"baseline", "fast"};
  for (int k = 0; k < 2; ++k) {
    const fs::path src = reference_solution(p, paths, roles[k]);
    if (!fs::exists(src)) return {{}, "no " + src.string()};
    listener.note(std::string("timing the ") + roles[k] + " reference solution on this machine (once; cached)");
    rep[k] = grade(p, src, ref, paths, progress);
    if (rep[k].verdict != Verdict::AC)
      return {{}, std::string("the ") + roles[k] + " reference solution got " + verdict_name(rep[k].verdict) + ": " +
                      rep[k].message};
  }
  return save_scale(p, paths, m, rep[0], rep[1]);
}

bool emulator_built() {
#ifdef HPCJUDGE_HAVE_EMULATOR
  return true;
#else
  return false;
#endif
}

}  // namespace hpcjudge
