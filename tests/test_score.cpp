// The score formula and the speed-of-light arithmetic, on made-up timings.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "judge/machine/calibration.h"
#include "judge/timing/score.h"
#include "judge/reports/course.h"
#include "judge/reports/human.h"

using namespace hpcjudge;
using Catch::Approx;

namespace {
BenchResult timed(const std::string& name, double median) {
  BenchResult b;
  b.name = name;
  b.stats.median = median;
  return b;
}
const Scale kScale{{{"a", 8.0, 1.0}, {"b", 4.0, 1.0}}, ""};  // the fast reference: 8x and 4x the baseline
}  // namespace

TEST_CASE("score: baseline 0, fast reference 1, the geometric mean of speed-ups between") {
  CHECK(*performance_fraction({timed("a", 8.0), timed("b", 4.0)}, kScale) == Approx(0.0));
  CHECK(*performance_fraction({timed("a", 1.0), timed("b", 1.0)}, kScale) == Approx(1.0));
  // 2x on both: ln 4 / ln 32 = 0.4.
  CHECK(*performance_fraction({timed("a", 4.0), timed("b", 2.0)}, kScale) == Approx(std::log(4.0) / std::log(32.0)));
  // The worked example of docs/timing.md: 4x and 4x the baseline.
  CHECK(*performance_fraction({timed("a", 2.0), timed("b", 1.0)}, kScale) == Approx(std::log(16.0) / std::log(32.0)));
}

TEST_CASE("score: clamped to [0, 1.2]; slower than the baseline is 0, beating the fast reference a bounded bonus") {
  CHECK(*performance_fraction({timed("a", 80.0), timed("b", 40.0)}, kScale) == 0.0);
  // 2x the fast reference on both cases: ln(16*8) / ln 32 = 1.4, capped at 1.2.
  CHECK(*performance_fraction({timed("a", 0.5), timed("b", 0.5)}, kScale) == kMaxFraction);
  CHECK(kMaxFraction == 1.2);
  // A little faster than the fast reference: the bonus grows on the same log scale.
  CHECK(*performance_fraction({timed("a", 1.0), timed("b", 0.8)}, kScale) == Approx(std::log(40.0) / std::log(32.0)));
}

TEST_CASE("score: cases missing from the scale do not count; none at all is no fraction") {
  CHECK(*performance_fraction({timed("a", 1.0), timed("zzz", 100.0)}, kScale) == Approx(std::log(8.0) / std::log(8.0)));
  CHECK_FALSE(performance_fraction({timed("zzz", 1.0)}, kScale).has_value());
}

TEST_CASE("speed of light: percentages and the physical floor") {
  const Peaks p{.copy_gbps = 1000, .fma_gflops = 50000, .measured = {}};
  // 1 GB in 2 ms is 500 GB/s: half the copy bandwidth.
  CHECK(percent_of_peak(1e9, 0, 2e-3, p) == Approx(50));
  // A FLOP model is judged by its FLOPs: 1e12 FLOP in 40 ms is 25 TFLOP/s.
  CHECK(percent_of_peak(1e9, 1e12, 40e-3, p) == Approx(50));
  // The floor: 1 GB at 3x the bandwidth, or 1e12 FLOP at 8x the FMA rate, whichever is longer.
  CHECK(physical_floor_s(1e9, 0, p) == Approx(1e9 / (kBytesSlack * 1e12)));
  CHECK(physical_floor_s(1e9, 1e12, p) == Approx(std::max(1e9 / (kBytesSlack * 1e12), 1e12 / (kFlopsSlack * 5e13))));
  CHECK(physical_floor_s(0, 0, p) == 0);
}

TEST_CASE("the physical floor judges the judge's whole interval, not the time with the round trip subtracted") {
  // softmax-gpu's n1M on the H200: 12 MB at 3 x 4255 GB/s is 0.94 us. Its fast reference's call took 190 us on the
  // judge's clock, the cold pings' 10th percentile 200 us: scored 0 s, and it was FAIL.
  const Peaks h200{.copy_gbps = 4255, .fma_gflops = 60647, .measured = {}};
  const double floor = physical_floor_s(1.2e7, 0, h200);
  CHECK(floor == Approx(0.94e-6).epsilon(0.01));
  CHECK_FALSE(faster_than_hardware(190e-6, floor));
  // An answer made outside the call: back before the hardware could have read the inputs.
  CHECK(faster_than_hardware(0.5e-6, floor));
  CHECK_FALSE(faster_than_hardware(0, 0));  // no peaks measured: no floor
}

TEST_CASE("score: a cached scale counts only for the machine and the reference solutions it timed") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hpcjudge-scale-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path baseline = dir / "baseline.cu", fast = dir / "fast.cu", file = dir / "scale.json";
  std::ofstream(baseline) << "// baseline\n";
  std::ofstream(fast) << "// fast, version 1\n";
  const std::string digest = reference_digest(baseline, fast);
  write_scale_cache(file, "machine A", digest, kScale);

  const auto same = read_cached_scale(file, "machine A", reference_digest(baseline, fast));
  REQUIRE(same);
  REQUIRE(same->cases.size() == 2);
  CHECK(same->cases[1].name == "b");
  CHECK(same->cases[1].baseline_s == 4.0);
  CHECK(same->cases[1].fast_s == 1.0);

  CHECK_FALSE(read_cached_scale(file, "machine B", digest));  // another machine
  std::ofstream(fast) << "// fast, version 2: a faster reference\n";
  CHECK(reference_digest(baseline, fast) != digest);
  CHECK_FALSE(read_cached_scale(file, "machine A", reference_digest(baseline, fast)));  // timed again
  // The load it was measured at is kept; a busy measurement is timed again once the machine is quiet.
  Scale busy = kScale;
  busy.load_per_core = 2.4;
  write_scale_cache(file, "machine A", digest, busy);
  REQUIRE(read_cached_scale(file, "machine A", digest));
  CHECK(read_cached_scale(file, "machine A", digest)->load_per_core == 2.4);
  CHECK(retime_busy_scale(2.4, 0.3));         // busy then, quiet now: timed again
  CHECK_FALSE(retime_busy_scale(2.4, 2.0));   // still busy: timing again would be no better
  CHECK_FALSE(retime_busy_scale(1.1, 0.1));   // the judge's own load only
  CHECK_FALSE(retime_busy_scale(-1, 0.1));    // an older cache that did not say
  CHECK_FALSE(retime_busy_scale(2.4, -1));    // no load average here
  // The digest covers both files and where one ends.
  CHECK(reference_digest(fast, baseline) != reference_digest(baseline, fast));
  // A file edited or cut short is no scale (timed again), never a stop of the judge: the right version, machine
  // and references, but no cases, a case without a time, a time that is text, or no object at all.
  write_scale_cache(file, "machine A", digest, kScale);
  const nlohmann::json written = nlohmann::json::parse(std::ifstream(file));
  const auto edited = [&](const char* cases) {
    nlohmann::json j = written;
    j.erase("cases");
    if (*cases) j["cases"] = nlohmann::json::parse(cases);
    std::ofstream(file) << j.dump();
    return read_cached_scale(file, "machine A", digest);
  };
  CHECK(edited(R"([{"name":"a","baseline_s":2,"fast_s":1}])"));  // the well-formed twin is read
  CHECK_FALSE(edited(""));
  CHECK_FALSE(edited(R"({"name":"a"})"));
  CHECK_FALSE(edited(R"([{"name":"a","fast_s":1}])"));
  CHECK_FALSE(edited(R"([{"name":"a","baseline_s":"2","fast_s":1}])"));
  CHECK_FALSE(edited("[7]"));
  std::ofstream(file) << "[1, 2]";
  CHECK_FALSE(read_cached_scale(file, "machine A", digest));
  fs::remove_all(dir);
}

namespace {
BenchResult::Paired beside(const std::string& role, double ratio, double lo, double hi) {
  return {.role = role, .median_log = std::log(ratio), .ci = {std::log(lo), std::log(hi)}, .pairs = 10, .stats = {}};
}
}  // namespace

TEST_CASE("score side by side: this run's ratio to the fast reference, on the cached scale's span") {
  // As fast as the fast reference timed beside it: full marks, whatever the cached medians say of the
  // machine's speed in another run (the case's own median is 1/3 of the cached fast time here).
  BenchResult a = timed("a", 0.33), b = timed("b", 3.0);
  a.paired = {beside("fast", 1.0, 0.99, 1.01)};
  b.paired = {beside("fast", 1.0, 0.98, 1.02)};
  const auto e = performance_estimate({a, b}, kScale);
  REQUIRE(e);
  CHECK(e->value == Approx(1.0));
  // The interval: the two half-widths (in logs) in quadrature, over ln 8 + ln 4.
  const double h = std::hypot(0.5 * std::log(1.01 / 0.99), 0.5 * std::log(1.02 / 0.98)) / std::log(32.0);
  CHECK(e->lo == Approx(1.0 - h));
  CHECK(e->hi == Approx(1.0 + h));
  // Twice the fast reference's time on both: ln 2 off each case's span.
  a.paired = {beside("fast", 2.0, 2.0, 2.0)};
  b.paired = {beside("fast", 2.0, 2.0, 2.0)};
  CHECK(performance_estimate({a, b}, kScale)->value == Approx((std::log(32.0) - 2 * std::log(2.0)) / std::log(32.0)));
  CHECK(performance_estimate({a, b}, kScale)->lo == performance_estimate({a, b}, kScale)->hi);
}

TEST_CASE("score side by side: the baseline beside too makes the whole scale this run's") {
  // Without any cached scale: the run is 1/4 of the baseline's time and 2x the fast reference's.
  BenchResult a = timed("a", 1.0);
  a.paired = {beside("fast", 2.0, 2.0, 2.0), beside("baseline", 0.25, 0.25, 0.25)};
  const auto e = performance_estimate({a}, Scale{});
  REQUIRE(e);
  CHECK(e->value == Approx(std::log(4.0) / std::log(8.0)));
  // Without a scale or a rival, no figure.
  CHECK_FALSE(performance_estimate({timed("a", 1.0)}, Scale{}).has_value());
}

TEST_CASE("score from the cached scale alone: the interval comes from the case's median interval") {
  BenchResult a = timed("a", 1.0), b = timed("b", 1.0);
  a.stats.median_ci = {0.5, 2.0};
  b.stats.median_ci = {1.0, 1.0};
  const auto e = performance_estimate({a, b}, kScale);
  REQUIRE(e);
  CHECK(e->value == Approx(1.0));
  CHECK(e->lo == Approx(1.0 - std::log(2.0) / std::log(32.0)));
  CHECK(e->hi == Approx(std::min(kMaxFraction, 1.0 + std::log(2.0) / std::log(32.0))));
}

TEST_CASE("score: a baseline within kMinScaleSpan of the fast reference is scored from that span instead") {
  CHECK(kMinScaleSpan == 2.0);
  // vector-add on the H200, side by side: the baseline 1.02x the fast reference's time. A span of ln 1.02 would
  // turn a run's few per cent of noise into the whole scale; the slow end is 2x the fast reference's time instead.
  BenchResult a = timed("a", 1.0);
  a.paired = {beside("fast", 1.0, 0.9, 1.1), beside("baseline", 1.0 / 1.02, 0.8, 1.2)};
  auto e = performance_estimate({a}, Scale{});
  REQUIRE(e);
  CHECK(e->value == Approx(1.0));  // as fast as the fast reference: all the points
  REQUIRE(e->floored == std::vector<std::string>{"a"});
  // Only the ratio to the fast reference counts, its interval too (not the baseline's in quadrature).
  CHECK(e->lo == Approx(1.0 - 0.5 * std::log(1.1 / 0.9) / std::log(2.0)));
  // Half-way on that span: sqrt(2) x the fast reference's time; 2x it is 0.
  a.paired = {beside("fast", std::sqrt(2.0), std::sqrt(2.0), std::sqrt(2.0)), beside("baseline", 1.4, 1.4, 1.4)};
  CHECK(performance_estimate({a}, Scale{})->value == Approx(0.5));
  a.paired = {beside("fast", 2.0, 2.0, 2.0), beside("baseline", 2.0, 2.0, 2.0)};
  CHECK(performance_estimate({a}, Scale{})->value == Approx(0.0));
  // A baseline faster than the fast reference (reduction's n16M: 0.98x) is the same: scored from 2x.
  a.paired = {beside("fast", 1.0, 1.0, 1.0), beside("baseline", 1.02, 1.02, 1.02)};
  CHECK(performance_estimate({a}, Scale{})->value == Approx(1.0));
  // From a cached scale alone, the same rule; a case with a wide span beside it keeps its own.
  const Scale narrow{{{"a", 1.1, 1.0}, {"b", 4.0, 1.0}}, ""};
  BenchResult b = timed("b", 2.0);
  a = timed("a", 1.0);
  e = performance_estimate({a, b}, narrow);
  REQUIRE(e);
  CHECK(e->floored == std::vector<std::string>{"a"});
  CHECK(e->value == Approx((std::log(2.0) + std::log(2.0)) / (std::log(2.0) + std::log(4.0))));
  // A span of exactly 2x or more is the baseline's own.
  CHECK(performance_estimate({timed("a", 1.0)}, Scale{{{"a", 2.0, 1.0}}, ""})->floored.empty());
}

TEST_CASE("the human scale line names the slow end a floored case was scored from, whole") {
  // A case on the narrowest span, as the judge prints it: the phrase once came out cut at 64 bytes.
  Report r;
  r.compiled = true;
  BenchResult a = timed("n32M", 1e-3);
  a.paired = {beside("fast", 1.0, 0.9, 1.1)};
  a.baseline_s = 1.02e-3;
  a.fast_s = 1e-3;
  a.baseline_from = a.fast_from = "side by side";
  a.scale_floor_s = kMinScaleSpan * 1e-3;
  r.bench = {a};
  const Problem* p = Registry::find("vector-add");
  REQUIRE(p);
  char path[] = "/tmp/hpcjudge-human-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(fd, 1);
  HumanPrinter(*p, Style{}).finished(r);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  const std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  CHECK(out.find("scored from 2.000 ms (2x the fast reference's time: the baseline is within that of it)") !=
        std::string::npos);
}

TEST_CASE("machine noise: the load average says how much of it the judge's own spinners were") {
  Report r;
  r.machine.cores = 16;
  r.timing = {{"cpus_kept_awake", true}, {"cpus_spinning_in_calls", 16}, {"cpus_spinning_s", 1.25}};
  const std::string why = machine_noise(r);
  if (load_average() < 0) SKIP("no /proc/loadavg here");
  CHECK(why.find("load average") != std::string::npos);
  CHECK(why.find("with the judge's 16 spinning threads in it for 1.25 s of calls") != std::string::npos);
  r.timing["cpus_spinning_in_calls"] = 0;  // none spun: nothing said of them
  CHECK(machine_noise(r).find("spinning") == std::string::npos);
}

TEST_CASE("machine noise names the cases of under a millisecond a call, whose spread a quiet machine keeps") {
  Report r;
  r.machine.cores = 16;
  BenchResult fast, slow;
  fast.name = "n32M";
  fast.stats.median = 299e-6;
  slow.name = "n100M";
  slow.stats.median = 1.5e-3;
  r.bench = {slow, fast};
  const std::string why = machine_noise(r);
  CHECK(why.find("cases of under a millisecond a call (n32M ") != std::string::npos);
  CHECK(why.find("n100M") == std::string::npos);
  r.bench = {slow};
  CHECK(machine_noise(r).find("under a millisecond") == std::string::npos);
}

TEST_CASE("a measured score's ± reaches Gradescope's results and JUnit's properties; none where unmeasured", "[reports]") {
  const Problem& p = *Registry::find("vector-add");
  Report r;
  r.problem = "vector-add";
  r.verdict = Verdict::AC;
  r.score.correctness = p.info().points.correctness;
  r.score.performance = 47.2;
  r.score.performance_lo = 44.1;
  r.score.performance_hi = 50.3;
  r.score.max = p.info().points.total();
  const nlohmann::json j = r.to_json();
  const nlohmann::json gs = gradescope_results(p, j);
  CHECK(gs["output"].get<std::string>().find("score 87.2 ± 3.1 / 100") != std::string::npos);
  CHECK(gs["extra_data"]["plus_minus"].get<double>() == Catch::Approx(3.1));
  CHECK(junit_document("hpcjudge", {junit_testsuite(p, j)}).find("name=\"plus_minus\" value=\"3.1\"") !=
        std::string::npos);
  r.score.performance_lo.reset();
  r.score.performance_hi.reset();
  const nlohmann::json unmeasured = r.to_json();
  CHECK(gradescope_results(p, unmeasured)["extra_data"]["plus_minus"].is_null());
  CHECK(gradescope_results(p, unmeasured)["output"].get<std::string>().find("±") == std::string::npos);
  CHECK(junit_document("hpcjudge", {junit_testsuite(p, unmeasured)}).find("plus_minus") == std::string::npos);
}
