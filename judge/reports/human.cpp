#include "judge/reports/human.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sdk/problem.h"
#include "sdk/text.h"
#include "judge/estimate/estimate.h"
#include "judge/timing/score.h"
#include "judge/reports/text.h"
#include "settings/settings.h"

namespace hpcjudge {

Style Style::detect(FILE* f) {
  Style s;
  s.tty = isatty(fileno(f));
  s.color = s.tty && !settings::Settings::at_start().is_set(settings::kNoColor);
  return s;
}

std::string Style::paint(Verdict v, const std::string& text) const {
  if (!color) return text;
  const char* c = "31";  // red
  if (v == Verdict::AC) c = "32";
  if (v == Verdict::SKIP) c = "33";
  if (v == Verdict::FAIL) c = "35";
  if (v == Verdict::JE) c = "36";  // cyan: the judge's fault, not the submission's
  return std::string("\033[1;") + c + "m" + text + "\033[0m";
}

std::string Style::dim(const std::string& text) const { return color ? "\033[2m" + text + "\033[0m" : text; }

namespace {
std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }
std::string rpad(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

HumanPrinter::HumanPrinter(const Problem& p, Style style, HumanOptions opt) : problem_(p), style_(style), opt_(opt) {
  const std::vector<Case> tests = p.tests();
  for (const Case& c : tests) test_width_ = std::max(test_width_, c.name.size());
  if (!tests.empty()) test_width_ = std::max(test_width_, tests.back().name.size() + kNewInputs.size());
  for (const Case& c : p.benchmarks()) bench_width_ = std::max(bench_width_, c.name.size());
}

void HumanPrinter::compiled(const Report& r) {
  printed();
  const std::string seed = r.seed_secret ? "secret" : std::to_string(r.seed);
  std::printf("%s  %s  seed %s\n", r.problem.c_str(), terminal_safe(r.file).c_str(), seed.c_str());
  std::printf("%s\n", style_.dim("machine: " + r.machine.cpu_model + ", " + std::to_string(r.machine.cores) +
                                 " cores, " + std::to_string(r.machine.threads) + " OpenMP threads; " +
                                 r.machine.compiler)
                          .c_str());
  if (r.compiled && r.compile_cached)
    std::printf("compiled earlier on this machine (the same file, judge and problem): %.2f s\n", r.compile_seconds);
  else if (r.compiled)
    std::printf("compiled in %.2f s\n", r.compile_seconds);
  if (!r.kernels.empty()) {
    std::printf("%s\n", style_.dim("kernels (ptxas, " + r.compile_arch + "):").c_str());
    for (const KernelResources& k : r.kernels) std::printf("  %s\n", style_.dim(k.describe()).c_str());
  }
  std::fflush(stdout);
}

void HumanPrinter::test_done(const TestResult& t) {
  printed();
  // A call that crashed, was killed or never ran has no time worth printing.
  const bool timed = t.verdict == Verdict::AC || t.verdict == Verdict::WA;
  std::printf("  %s %s %s %s\n", style_.paint(t.verdict, pad(verdict_name(t.verdict), 4)).c_str(),
              pad(t.name, test_width_).c_str(), pad(t.sizes, 22).c_str(),
              rpad(timed ? format_seconds(t.seconds) : "-", 11).c_str());
  std::istringstream why(opt_.verbose || t.summary.empty() ? t.message : t.summary);
  for (std::string line; std::getline(why, line);)
    if (!line.starts_with("hint: ") || hints_shown_.insert(line).second)  // the same hint once a grade
      std::printf("       %s\n", terminal_text(line).c_str());
  std::fflush(stdout);
}

void HumanPrinter::clear_progress() {
  if (progress_) std::printf("\r\033[K");
  progress_ = false;
}

void HumanPrinter::note(const std::string& text) {
  clear_progress();
  printed();
  std::printf("%s\n", style_.dim(terminal_text(text)).c_str());
  std::fflush(stdout);
}

void HumanPrinter::bench_start(const Case& c) {
  if (!bench_header_) {
    bench_header_ = true;
    const bool flops = problem_.model(c).flops > 0;
    std::printf("performance (caches flushed before each run; fresh inputs for every run)\n");
    std::printf("  %s %s %s %s %s %s %s %s %s %s\n", pad("case", bench_width_).c_str(), pad("size", 22).c_str(),
                rpad("median", 11).c_str(), rpad("mean", 11).c_str(), rpad("min", 11).c_str(),
                rpad(flops ? "GFLOP/s" : "GB/s", 9).c_str(), rpad("% peak", 7).c_str(), rpad("runs", 5).c_str(),
                rpad("spread", 7).c_str(), "stop");
  }
  if (style_.tty) {
    std::printf("  timing %s (%s)...", c.name.c_str(), c.size_string().c_str());
    progress_ = true;
  }
  printed();
  std::fflush(stdout);
}

// A timing loop as it goes: on a terminal its line redrawn in place (at most five times a second); elsewhere a
// plain line once nothing was printed for kPipedProgressS seconds (none in a short grade), so a log is not flooded.
void HumanPrinter::bench_progress(const Case& c, const TimingLoop::Progress& p) {
  constexpr double kTerminalProgressS = 0.2, kPipedProgressS = 5;
  const double still_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - printed_at_).count();
  if (still_s < (style_.tty ? kTerminalProgressS : kPipedProgressS)) return;
  printed();
  const std::string line = "  timing " + c.name + " (" + c.size_string() + "): " +
                           counted(static_cast<size_t>(p.runs), "run") + " done, " +
                           format_seconds(p.elapsed_s, TimeStyle::Short) + " so far, " +
                           (p.left_s < 0.01 ? std::string("finishing")
                                            : "about " + format_seconds(p.left_s, TimeStyle::Short) + " left");
  if (style_.tty) std::printf("\r\033[K%s", line.c_str());
  else std::printf("%s\n", line.c_str());
  progress_ = style_.tty;
  std::fflush(stdout);
}

void HumanPrinter::bench_done(const BenchResult& b) {
  clear_progress();
  printed();
  const double rate = b.flops > 0 ? b.gflops() : b.gbps();
  // A case that ended before a timed run (RE, TLE, ...) has no figures: "-".
  const bool timed = b.stats.runs > 0;
  const auto figure = [&](const std::string& s) { return timed ? s : std::string("-"); };
  std::printf("  %s %s %s %s %s %s %s %s %s %s\n", pad(b.name, bench_width_).c_str(), pad(b.sizes, 22).c_str(),
              rpad(figure(format_seconds(b.stats.median)), 11).c_str(),
              rpad(figure(format_seconds(b.stats.mean)), 11).c_str(),
              rpad(figure(format_seconds(b.stats.min)), 11).c_str(), rpad(figure(fmt("%.1f", rate)), 9).c_str(),
              rpad(b.percent_of_peak ? fmt("%.0f%%", *b.percent_of_peak) : "-", 7).c_str(),
              rpad(std::to_string(b.stats.runs), 5).c_str(),
              rpad(figure(fmt("%.1f%%", 100 * b.stats.spread())), 7).c_str(),
              (b.stop + (timed && b.edges > 0 ? fmt("  %.2f GTEPS", b.gteps()) : "")).c_str());
  if (b.verdict != Verdict::AC)
    std::printf("       %s %s\n", style_.paint(b.verdict, verdict_name(b.verdict)).c_str(), terminal_text(b.message).c_str());
  std::fflush(stdout);
}

namespace {

// How one case's scale reads: the references' medians (" (beside)" where timed in this run), the submission's
// time against them, the floor it was scored from.
std::string case_scale(const BenchResult& b) {
  const auto from = [](const std::string& f) { return f == "side by side" ? std::string(" (beside)") : std::string(); };
  std::string line = b.name + " baseline " + format_seconds(*b.baseline_s) + from(b.baseline_from) + ", fast " +
                     format_seconds(*b.fast_s) + from(b.fast_from) +
                     (b.stats.median > 0 ? fmt(", yours %.2fx baseline", *b.baseline_s / b.stats.median) : "");
  if (const auto* f = b.paired_with("fast"))
    line += fmt(" and %.3fx the fast reference's time", std::exp(f->median_log)) + " [" +
            fmt("%.3f", std::exp(f->ci.lo)) + ", " + fmt("%.3f", std::exp(f->ci.hi)) + "]";
  if (b.scale_floor_s)
    line += ", scored from " + format_seconds(*b.scale_floor_s) + " (" + fmt("%g", kMinScaleSpan) +
            "x the fast reference's time: the baseline is within that of it)";
  return line;
}

// The score's scale on this machine, case by case, where a case has one.
void print_scale(const Report& r, const Style& style) {
  bool scaled = false;
  for (const auto& b : r.bench) scaled |= b.baseline_s.has_value();
  if (!scaled) return;
  std::string line = "scale on this machine (median): ";
  const char* sep = "";
  bool beside = false;
  for (const auto& b : r.bench)
    if (b.baseline_s && b.fast_s) {
      line += sep + case_scale(b);
      beside = beside || b.paired_with("fast");
      sep = "; ";
    }
  std::printf("%s\n", line.c_str());
  if (beside)
    std::printf("%s\n", style.dim("(beside): timed in this run, one call beside each of yours on the same inputs; "
                                  "the rest cached from an earlier run on this machine")
                            .c_str());
}

// What the figures above are of: the machine's peaks, the device memory solve() took, the submission's output,
// the tests emulation left out, and timing whose device work was not held inside its calls.
void print_context(const Report& r, const Style& style, size_t output_lines) {
  if (r.machine.peaks.is_object())
    std::printf("%s\n", style.dim("% peak: of this machine's measured " +
                                  fmt("%.0f", r.machine.peaks.value("copy_gbps", 0.0)) + " GB/s copy bandwidth and " +
                                  fmt("%.0f", r.machine.peaks.value("fma_gflops", 0.0)) +
                                  " GFLOP/s FP32 FMA rate (GFLOP/s cases by FLOP, GB/s cases by traffic)")
                            .c_str());
  if (r.device_peak_bytes && *r.device_peak_bytes > 0)
    std::printf("%s\n", style.dim(fmt("device memory allocated inside solve(): peak %.1f MiB",
                                      static_cast<double>(*r.device_peak_bytes) / (1 << 20)))
                            .c_str());
  if (r.output_bytes > 0) std::printf("%s", submission_output(r, output_lines).c_str());
  if (r.emulated && !r.emulation_skipped.empty()) {
    std::printf("%s\n", style.dim("not run under CPU emulation (too large; judged on a GPU only):").c_str());
    for (const auto& [name, why] : r.emulation_skipped)
      std::printf("%s\n", style.dim("  " + terminal_safe(name) + ": " + terminal_text(why)).c_str());
  }
  if (const auto d = r.timing.find("device_work");
      r.timing.is_object() && d != r.timing.end() && d->is_string() && !r.bench.empty() &&
      d->get<std::string>().starts_with("not held"))
    // A GPU submission timed while nothing kept its device work inside its calls (docs/design.md, "Device work
    // between calls"): its time may hold work done between them.
    std::printf("%s\n", style.paint(Verdict::SKIP, "timing not protected: device work " + d->get<std::string>() +
                                                       "; work left running between calls would not be seen")
                            .c_str());
}

// Where the grade's time went: the judge's own cost, phase by phase, and each performance case's.
void print_judge_time(const Report& r, const Style& style) {
  const auto w = r.timing.find("wall_s");
  if (!r.timing.is_object() || w == r.timing.end()) return;
  const auto s = [](double v) { return format_seconds(v, TimeStyle::Short); };
  std::string line = "judged in " + s(w->value("total", 0.0)) + ":";
  const char* sep = " ";
  for (const char* k : {"probe", "compile", "started_beside", "runner", "tests", "sanitizers", "performance_runner", "scale",
                        "peaks_and_rivals", "performance", "runners_ended", "runners_exited", "memory_freed", "ended",
                        "score"})
    if (w->contains(k)) {
      std::string name = k;
      for (char& ch : name)
        if (ch == '_') ch = ' ';
      line += sep + name + " " + s((*w)[k].get<double>()), sep = ", ";
    }
  for (const auto& b : r.bench)
    line += "; " + b.name + " " + s(b.wall.total) + " (lay-out " + s(b.wall.lay_out) + ", inputs " +
            s(b.wall.inputs) + ", calls " + s(b.wall.calls) + ", checks " + s(b.wall.checks) + ")";
  std::printf("%s\n", style.dim(line).c_str());
}

void print_verdict_and_score(const Report& r, const Style& style, double correctness_points) {
  std::printf("verdict %s", style.paint(r.verdict, verdict_name(r.verdict)).c_str());
  if (r.emulated) std::printf(" (emulated: the CUDA code ran on the CPU)");
  const std::string pm = r.score.plus_minus() ? fmt(" ± %.1f", *r.score.plus_minus()) : std::string();
  std::printf("   score %.1f%s / %.0f (correctness %.0f + performance %.1f / %.0f%s)\n", r.score.total(), pm.c_str(),
              r.score.max, r.score.correctness, r.score.performance, r.score.max - correctness_points,
              r.score.bonus > 0 ? fmt(", %.1f of it a bonus for beating the fast reference", r.score.bonus).c_str() : "");
}

// Under the verdict: how many tests were wrong (each was shown above, as it happened), else the message; the
// score's note and its noise.
void print_why(const Report& r, const Style& style, bool verbose) {
  size_t wrong = 0;
  const TestResult* first_wrong = nullptr;
  for (const TestResult& t : r.tests) {
    if (t.verdict != Verdict::WA || t.summary.empty()) continue;
    if (!first_wrong) first_wrong = &t;
    ++wrong;
  }
  if (r.verdict == Verdict::WA && first_wrong)
    std::printf("  %zu of %s wrong (the first: %s)%s\n", wrong, counted(r.tests.size(), "test").c_str(),
                first_wrong->name.c_str(), verbose ? "" : "; --verbose (or --json) lists the mismatches in full");
  else if (!r.message.empty())
    std::printf("  %s\n", terminal_text(r.message).c_str());
  if (!r.score.note.empty()) std::printf("  %s\n", style.dim(r.score.note).c_str());
  if (!r.score.noise.empty())
    std::printf("  the score is uncertain by more than %.0f points (%s); judge again on a quiet machine\n", kNoisyPoints,
                r.score.noise.c_str());
  // An emulated grade's estimate of the GPU (judge/estimate/): beside the verdict, never the score.
  const std::vector<std::string> estimate = estimate_lines(r.estimate);
  for (size_t i = 0; i < estimate.size(); ++i)
    std::printf("%s\n", i == 0 ? estimate[i].c_str() : style.dim(estimate[i]).c_str());
}

}  // namespace

void HumanPrinter::finished(const Report& r) {
  clear_progress();
  if (!r.compiled) {
    std::printf("%s\n", terminal_text(r.compile_log).c_str());
  }
  print_scale(r, style_);
  print_context(r, style_, opt_.output_lines);
  print_judge_time(r, style_);
  print_verdict_and_score(r, style_, problem_.info().points.correctness);
  print_why(r, style_, opt_.verbose);
  std::fflush(stdout);
}

std::string submission_output(const Report& r, size_t lines) {
  if (r.output_bytes == 0) return "";
  std::string s = "the submission's output (its stdout and stderr, " + counted(r.output_bytes, "byte") + "):\n";
  size_t shown = 0, total = 0, at = 0;
  while (at < r.output.size()) {
    size_t end = r.output.find('\n', at);
    if (end == std::string::npos) end = r.output.size();
    if (shown < lines) {
      std::string line = r.output.substr(at, std::min<size_t>(end - at, 200));
      s += "  | " + terminal_text(line) + (end - at > 200 ? " ..." : "") + "\n";
      ++shown;
    }
    ++total;
    at = end + 1;
  }
  if (total > shown || r.output_bytes > r.output.size()) {
    s += "  | ... ";
    s += r.output_bytes > r.output.size() ? "and more: " + counted(r.output_bytes, "byte") + " in all"
                                          : counted(total - shown, "more line");
    s += " (the first 64 KiB in the --json report)\n";
  }
  return s;
}

std::string summary_line(const Report& r, const Style& style) {
  char score[64];
  std::snprintf(score, sizeof score, "%6.1f / %-4.0f", r.score.total(), r.score.max);
  std::string why = r.message.empty() ? r.score.note : r.message;
  if (why.size() > 100) why = why.substr(0, 97) + "...";
  return pad(r.problem, 20) + " " + style.paint(r.verdict, pad(verdict_name(r.verdict), 5)) + " " + score + "  " +
         terminal_safe(why);
}

}  // namespace hpcjudge
