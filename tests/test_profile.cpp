// judge profile's readers: ncu's raw CSV page (a header row of metric names, a row of
// units, a row per profiled launch, after ncu's own ==PROF== lines) and perf stat -x,.
// The ncu text is written in that shape, with the metrics the summary reads (to be
// checked against a real report on a GPU host). kPerfHere is perf 6.1's real output
// on the development machine, a VM without hardware counters; kPerf has the same
// format with counts written for the test.
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <regex>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "judge/machine/profile.h"

using namespace hpcjudge;
using Catch::Matchers::ContainsSubstring;

namespace {
const char* kNcu =
    "==PROF== Connected to process 4242\n"
    "\"ID\",\"Process ID\",\"Kernel Name\",\"gpu__time_duration.sum\","
    "\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
    "\"sm__maximum_warps_per_active_cycle_pct\","
    "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio\"\n"
    "\"\",\"\",\"\",\"msecond\",\"%\",\"%\",\"%\",\"%\",\"ratio\",\"ratio\",\"ratio\",\"ratio\",\"ratio\"\n"
    "\"0\",\"4242\",\"matmul_tiled(const float *, const float *, float *, int, int, int)\",\"1,234.5\",\"45.2\","
    "\"78.9\",\"61.3\",\"100\",\"4.5\",\"12.25\",\"2.1\",\"1\",\"0.3\"\n";
const char* kPerfHere =
    "# started on Tue Dec  1 11:14:50 2026\n"
    "\n"
    "3091973582,ns,duration_time:u,3091973582,100.00,4.187,G/sec\n"
    "738.47,msec,task-clock:u,738469692,100.00,0.239,CPUs utilized\n"
    "<not supported>,,cycles:u,0,100.00,,\n"
    "<not supported>,,instructions:u,0,100.00,,\n"
    "<not supported>,,cache-references:u,0,100.00,,\n"
    "<not supported>,,cache-misses:u,0,100.00,,\n"
    "<not supported>,,branches:u,0,100.00,,\n"
    "<not supported>,,branch-misses:u,0,100.00,,\n";
const char* kPerf =
    "# started on Tue Dec  1 11:20:00 2026\n"
    "\n"
    "2001000000,ns,duration_time,2001000000,100.00,,\n"
    "3980.12,msec,task-clock,3980120000,100.00,1.989,CPUs utilized\n"
    "9000000000,,cycles,3980120000,100.00,2.261,GHz\n"
    "18000000000,,instructions,3980120000,100.00,2.00,insn per cycle\n"
    "100000000,,cache-references,3980120000,100.00,25.125,M/sec\n"
    "25000000,,cache-misses,3980120000,100.00,25.00,of all cache refs\n"
    "<not supported>,,branches,0,100.00,,\n";
}  // namespace

TEST_CASE("parse_ncu_raw_csv: one launch with its metrics and units") {
  const auto k = parse_ncu_raw_csv(kNcu);
  REQUIRE(k.size() == 1);
  CHECK(k[0].name == "matmul_tiled(const float *, const float *, float *, int, int, int)");
  CHECK(k[0].get("gpu__time_duration.sum") == 1234.5);
  CHECK(k[0].units.at("gpu__time_duration.sum") == "msecond");
  CHECK_FALSE(k[0].get("no__such.metric"));
}

TEST_CASE("ncu_summary: duration, throughputs, occupancy and the top stalls, largest first") {
  const auto k = parse_ncu_raw_csv(kNcu).at(0);
  const auto stalls = top_stalls(k, 3);
  REQUIRE(stalls.size() == 3);
  CHECK(stalls[0].first == "long_scoreboard");  // "selected" is issuing, not a stall
  CHECK(stalls[1].first == "barrier");
  CHECK(stalls[2].first == "mio_throttle");
  std::string all;
  for (const auto& l : ncu_summary(k)) all += l + "\n";
  CHECK_THAT(all, ContainsSubstring("duration              1234.500 ms"));
  CHECK_THAT(all, ContainsSubstring("memory throughput     45.2% of peak"));
  CHECK_THAT(all, ContainsSubstring("compute throughput    78.9% of peak"));
  CHECK_THAT(all, ContainsSubstring("achieved occupancy    61.3% (theoretical 100.0%)"));
  CHECK_THAT(all, ContainsSubstring("top stalls            long_scoreboard 12.25, barrier 4.50, mio_throttle 2.10"));
}

TEST_CASE("perf stat: events read, unsupported ones left out, the summary's ratios") {
  const auto e = parse_perf_stat_csv(kPerf);
  CHECK(e.at("task-clock") == 3980.12);
  CHECK(e.at("instructions") == 18000000000.0);
  CHECK_FALSE(e.count("branches"));
  std::string all;
  for (const auto& l : perf_summary(e)) all += l + "\n";
  // perf's task-clock spans the runner's whole life, waits between calls included: never "the CPUs used".
  CHECK_THAT(all, ContainsSubstring("runner's CPU use      1.99 CPUs over the runner's whole life"));
  CHECK_THAT(all, !ContainsSubstring("CPUs busy"));
  CHECK_THAT(all, ContainsSubstring("instructions/cycle    2.00"));
  CHECK_THAT(all, ContainsSubstring("cache misses          25.0%"));
  CHECK_THAT(all, !ContainsSubstring("branch misses"));
  CHECK_THAT(perf_summary({}).front(), ContainsSubstring("perf counted nothing"));
  // Without hardware counters: the CPU time, and a line saying the counters are missing.
  const auto here = parse_perf_stat_csv(kPerfHere);
  CHECK(here.at("task-clock") == 738.47);
  CHECK_FALSE(here.count("cycles"));
  std::string h;
  for (const auto& l : perf_summary(here)) h += l + "\n";
  CHECK_THAT(h, ContainsSubstring("runner's CPU use      0.24"));
  CHECK_THAT(h, ContainsSubstring("no hardware counters here"));
}

TEST_CASE("the CPUs solve() kept busy lead the summary, in place of perf's whole-life figure") {
  const auto e = parse_perf_stat_csv(kPerfHere);
  const auto text = [&](SolveCpus s) {
    std::string t;
    for (const auto& l : perf_summary(e, s)) t += l + "\n";
    return t;
  };
  const std::string parallel = text({.busy = 1.93, .waited_for = 0.02, .threads = 2});
  CHECK_THAT(parallel, ContainsSubstring("CPUs busy in solve()  1.93 of 2 threads on average"));
  CHECK_THAT(parallel, !ContainsSubstring("runner's CPU use"));
  CHECK_THAT(parallel, !ContainsSubstring("one CPU at a time"));
  CHECK_THAT(parallel, !ContainsSubstring("waited for"));
  CHECK_THAT(parallel, ContainsSubstring("no hardware counters here"));
  // Serial code on two threads: said so.
  CHECK_THAT(text({.busy = 0.98, .waited_for = 0, .threads = 2}), ContainsSubstring("about one CPU at a time"));
  // Parallel code on a busy machine: the wait named, not taken for serial code.
  const std::string busy = text({.busy = 0.62, .waited_for = 1.27, .threads = 2});
  CHECK_THAT(busy, ContainsSubstring("+ 1.27 CPUs its threads were ready to use but waited for"));
  CHECK_THAT(busy, !ContainsSubstring("one CPU at a time"));
}

TEST_CASE("judge profile's default case: the largest that runs on the machine") {
  const Problem& softmax = *Registry::find("softmax-cpu");  // n1M, n16M, and n100M on 16 cores or more
  CHECK(largest_case_here(softmax, 2) == "n16M");
  CHECK(largest_case_here(softmax, 16) == "n100M");
  for (const Problem* p : Registry::all()) {
    INFO(p->info().slug);
    const std::string chosen = largest_case_here(*p, 2);
    const std::vector<Case> cases = p->benchmarks();
    const auto it = std::find_if(cases.begin(), cases.end(), [&](const Case& b) { return b.name == chosen; });
    REQUIRE(it != cases.end());
    const Model best = p->model(*it);
    for (const Case& c : cases) {
      if (c.min_cores > 2) {
        CHECK(c.name != chosen);
        continue;
      }
      const Model m = p->model(c);
      CHECK((m.flops > 0 ? m.flops <= best.flops : m.bytes <= best.bytes));
    }
  }
}

TEST_CASE("the runner's prefixes: ncu filtered to the submission's kernels, perf stat to a file") {
  const auto n = ncu_prefix("/opt/ncu", {"_Z3addPfi", "plain"}, 2, "/tmp/x/rep");
  const std::string s = [&] { std::string t; for (const auto& a : n) t += a + " "; return t; }();
  CHECK_THAT(s, ContainsSubstring("--set full --launch-count 2 -f -o /tmp/x/rep"));
  // Only the launches inside the runner's range around solve(), never setup()'s (protocol/profiler_range.h).
  CHECK_THAT(s, ContainsSubstring("--nvtx --nvtx-include solve/ "));
  CHECK_THAT(s, ContainsSubstring("--kernel-name-base mangled --kernel-name regex:^(_Z3addPfi|plain)$"));
  // A kernel in an anonymous namespace: its hash differs from compile to compile, so any is matched.
  const auto a = ncu_prefix("/opt/ncu", {"_ZN44_GLOBAL__N__4f7730c0_11_solution_cu_b32257a811scan_expandEPKj"}, 1, "r");
  const std::regex got(a.back().substr(std::string("regex:").size()));
  CHECK(std::regex_match("_ZN44_GLOBAL__N__f2bd5c0e_11_solution_cu_b32257a811scan_expandEPKj", got));
  CHECK_FALSE(std::regex_match("_ZN44_GLOBAL__N__f2bd5c0e_11_solution_cu_b32257a811clearEPKj", got));
  const auto p = perf_prefix("/usr/bin/perf", "/tmp/x/p.csv");
  CHECK(p.back() == "--");
  CHECK(p[4] == "-o");
}
