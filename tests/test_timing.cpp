// The timing loop's statistics and stopping rule.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <cmath>
#include <thread>

#include "sdk/timing.h"
#include "judge/timing/budget.h"
#include "judge/timing/loop.h"
#include "judge/timing/rivals.h"
#include "judge/verdicts/judge_error.h"
#include "judge/verdicts/forgery.h"

using namespace hpcjudge;
using Catch::Approx;

TEST_CASE("Stats of a known sample") {
  const Stats s = Stats::of({4, 1, 3, 2});
  CHECK(s.runs == 4);
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(s.mean == 2.5);
  CHECK(s.median == 2.5);
  CHECK(s.stddev == Approx(1.2909944487));
  CHECK(s.sem == Approx(1.2909944487 / 2));
  CHECK(Stats::of({5, 1, 3}).median == 3);
}

TEST_CASE("warm-up runs are discarded") {
  TimingLoop loop({.warmup_runs = 2, .min_runs = 3});
  CHECK(loop.warming_up());
  loop.add(100);
  loop.add(100);
  CHECK_FALSE(loop.warming_up());
  loop.add(1);
  CHECK(loop.samples().size() == 1);
}

TEST_CASE("a steady timing stops once the standard error is small") {
  TimingLoop loop({.warmup_runs = 1, .min_runs = 5, .max_runs = 1000, .target_rel_sem = 0.01, .budget_s = 60});
  int runs = 0;
  while (loop.want_more()) loop.add(1.0 + 0.001 * (runs++ % 3));
  CHECK(loop.samples().size() == 5);
  CHECK(std::string(loop.stop_reason()) == "converged");
}

TEST_CASE("a noisy timing runs until max runs or the budget") {
  TimingLoop loop({.warmup_runs = 0, .min_runs = 3, .max_runs = 50, .target_rel_sem = 1e-9, .budget_s = 60});
  int runs = 0;
  while (loop.want_more()) loop.add(1.0 + (runs++ % 2));
  CHECK(loop.samples().size() == 50);
  CHECK(std::string(loop.stop_reason()) == "max runs");

  TimingLoop timed({.warmup_runs = 0, .min_runs = 3, .max_runs = 100000, .target_rel_sem = 1e-9, .budget_s = 0.05});
  while (timed.want_more()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    timed.add(1.0 + (runs++ % 2));
  }
  CHECK(timed.samples().size() >= 3);
  CHECK(timed.samples().size() < 100);
  CHECK(std::string(timed.stop_reason()) == "budget");
}

TEST_CASE("a timing loop's progress: runs made, and the runs it must still make at the pace so far") {
  TimingLoop loop({.warmup_runs = 1, .min_runs = 3, .budget_s = 0});
  CHECK(loop.progress().runs == 0);
  CHECK(loop.progress().left_s == 0);
  loop.add(1.0);  // the warm-up
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  loop.add(1.0);
  TimingLoop::Progress p = loop.progress();
  CHECK(p.runs == 2);
  CHECK(p.elapsed_s >= 0.02);
  CHECK(p.left_s == Approx(p.elapsed_s).epsilon(0.05));  // two more runs at half the time so far each
  loop.add(1.0);
  loop.add(1.0);
  CHECK_FALSE(loop.want_more());
  CHECK(loop.progress().runs == 4);
  CHECK(loop.progress().left_s == 0);  // the budget spent, the minimum made: nothing left
}

TEST_CASE("the minimum number of runs is kept even past the budget") {
  TimingLoop loop({.warmup_runs = 1, .min_runs = 3, .max_runs = 100, .target_rel_sem = 1e-9, .budget_s = 0});
  int n = 0;
  while (loop.want_more()) loop.add(1.0 + n++);
  CHECK(loop.samples().size() == 3);
}

TEST_CASE("the median's interval: order statistics around the middle, the whole range when few") {
  CHECK(median_interval({}).lo == 0);
  const Interval few = median_interval({5, 1, 3});
  CHECK(few.lo == 1);
  CHECK(few.hi == 5);
  // 100 samples 1..100: ranks 50 -+ 9.8 -> 40 and 61.
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  const Interval i100 = median_interval(v);
  CHECK(i100.lo == 40);
  CHECK(i100.hi == 61);
  CHECK(i100.lo <= Stats::of(v).median);
  CHECK(Stats::of(v).median <= i100.hi);
  CHECK(Stats::of(v).median_ci.lo == i100.lo);
  // More samples of the same spread: a narrower interval, relative to the range.
  std::vector<double> w;
  for (int i = 1; i <= 1000; ++i) w.push_back(i / 10.0);
  CHECK(median_interval(w).half_width() / 100 < i100.half_width() / 100);
}

TEST_CASE("side by side: the loop also waits for each rival's ratio to converge") {
  // The run's time is steady; the rival's alternates 1 and 3: the ratio is noisy.
  TimingLoop loop({.warmup_runs = 0, .min_runs = 3, .max_runs = 40, .target_rel_sem = 0.01, .budget_s = 60}, 1);
  int n = 0;
  while (loop.want_more()) loop.add(2.0, {n++ % 2 ? 1.0 : 3.0});
  CHECK(loop.samples().size() == 40);  // the time alone would have converged at 3
  REQUIRE(loop.log_ratios(0).size() == 40);
  CHECK(loop.log_ratios(0)[0] == Approx(std::log(2.0 / 3.0)));
  // A withdrawn rival no longer holds it.
  TimingLoop dropped({.warmup_runs = 0, .min_runs = 3, .max_runs = 40, .target_rel_sem = 0.01, .budget_s = 60}, 1);
  dropped.drop_rival(0);
  n = 0;
  while (dropped.want_more()) dropped.add(2.0, {n++ % 2 ? 1.0 : 3.0});
  CHECK(dropped.samples().size() == 3);
  CHECK(dropped.log_ratios(0).empty());
  // Ratios held steady converge as the time does.
  TimingLoop steady({.warmup_runs = 1, .min_runs = 3, .max_runs = 40, .target_rel_sem = 0.01, .budget_s = 60}, 1);
  while (steady.want_more()) steady.add(2.0, {1.0});
  CHECK(steady.samples().size() == 3);
  CHECK(steady.log_ratios(0).size() == 3);  // the warm-up's ratio is not kept
}

TEST_CASE("side by side: a loop in cycles of the calls' order stops at a cycle's end") {
  TimingLoop loop({.warmup_runs = 1, .min_runs = 10, .max_runs = 100, .target_rel_sem = 0.01, .budget_s = 60,
                   .cycle = 6},
                  2);
  while (loop.want_more()) loop.add(2.0, {2.0, 4.0});
  CHECK(loop.samples().size() == 12);  // converged at 10, the cycle ended at 12
  // max_runs and the hard budget still stop it inside a cycle.
  TimingLoop capped({.warmup_runs = 0, .min_runs = 10, .max_runs = 11, .target_rel_sem = 0.01, .budget_s = 60,
                     .cycle = 6},
                    2);
  while (capped.want_more()) capped.add(2.0, {2.0, 4.0});
  CHECK(capped.samples().size() == 11);
  TimingLoop hard({.warmup_runs = 0, .min_runs = 10, .max_runs = 100, .target_rel_sem = 0.01, .budget_s = 0,
                   .hard_budget_s = 0.03, .cycle = 6},
                  2);
  while (hard.want_more()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hard.add(2.0, {2.0, 4.0});
  }
  CHECK(hard.samples().size() == 3);
}

TEST_CASE("side by side: every side is at every place of a run as often, each pair swapping places run to run") {
  for (size_t rivals : {size_t{0}, size_t{1}, size_t{2}, size_t{3}}) {
    CAPTURE(rivals);
    const size_t cycle = call_order_cycle(rivals), sides = rivals + 1;
    // place[side][run]: side 0 the submission, side k + 1 rival k.
    std::vector<std::vector<size_t>> place(sides, std::vector<size_t>(cycle));
    for (size_t run = 0; run < cycle; ++run) {
      const std::vector<int> order = call_order(run, rivals);
      REQUIRE(order.size() == sides);
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < sides; ++i) CHECK(sorted[i] == static_cast<int>(i) - 1);  // a permutation
      for (size_t i = 0; i < sides; ++i) place[static_cast<size_t>(order[i] + 1)][run] = i;
      CHECK(call_order(run + cycle, rivals) == order);  // it repeats
    }
    // The submission against each rival: every (its place, the rival's place) as often as the mirror image.
    for (size_t k = 1; k < sides; ++k)
      for (size_t i = 0; i < sides; ++i)
        for (size_t j = 0; j < sides; ++j) {
          size_t ij = 0, ji = 0;
          for (size_t run = 0; run < cycle; ++run) {
            ij += place[0][run] == i && place[k][run] == j;
            ji += place[0][run] == j && place[k][run] == i;
          }
          CHECK(ij == ji);
        }
    if (rivals != 2) continue;
    // Two rivals: each side at each place twice in the 6 runs, and the submission and the fast reference
    // trade places in each pair of runs (0 and 1, 2 and 3, 4 and 5), the baseline staying put.
    for (size_t side = 0; side < sides; ++side)
      for (size_t i = 0; i < sides; ++i) CHECK(std::count(place[side].begin(), place[side].end(), i) == 2);
    for (size_t run = 0; run < cycle; run += 2) {
      CHECK(place[0][run] == place[1][run + 1]);
      CHECK(place[1][run] == place[0][run + 1]);
      CHECK(place[2][run] == place[2][run + 1]);
    }
  }
}

TEST_CASE("a hard budget stops the loop below its minimum of runs, never below 3") {
  TimingLoop loop({.warmup_runs = 0, .min_runs = 10, .max_runs = 100, .target_rel_sem = 1e-9, .budget_s = 0,
                   .hard_budget_s = 0.03});
  int n = 0;
  while (loop.want_more()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    loop.add(1.0 + n++);
  }
  CHECK(loop.samples().size() == 3);
  TimingLoop plenty({.warmup_runs = 0, .min_runs = 10, .max_runs = 100, .target_rel_sem = 1e-9, .budget_s = 0,
                     .hard_budget_s = 60});
  n = 0;
  while (plenty.want_more()) plenty.add(1.0 + n++);
  CHECK(plenty.samples().size() == 10);
}

TEST_CASE("performance cases are timed heaviest first, ties in the problem's order") {
  CHECK(heaviest_first({}).empty());
  CHECK(heaviest_first({5}) == std::vector<size_t>{0});
  CHECK(heaviest_first({100, 400, 100, 800}) == std::vector<size_t>{3, 1, 0, 2});
  CHECK(heaviest_first({7, 7, 7}) == std::vector<size_t>{0, 1, 2});
}

TEST_CASE("a GPU grade's cases share the timing budget, what one leaves going to the next") {
  // Three cases of a 3 s budget each: the first gets a third of the grade's budget.
  CHECK(shared_case_budget(3.0, 0.0, 3) == Catch::Approx(kGpuTimingBudgetS / 3));
  // It converged in 0.2 s: the other two share the rest.
  CHECK(shared_case_budget(3.0, 0.2, 2) == Catch::Approx((kGpuTimingBudgetS - 0.2) / 2));
  // A case's own budget stays the cap.
  CHECK(shared_case_budget(1.0, 0.0, 1) == Catch::Approx(1.0));
  // Past the grade's budget, a case still gets the floor (or its own budget, if smaller).
  CHECK(shared_case_budget(3.0, 2 * kGpuTimingBudgetS, 1) == Catch::Approx(kMinCaseBudgetS));
  CHECK(shared_case_budget(0.2, 2 * kGpuTimingBudgetS, 1) == Catch::Approx(0.2));
  // A grade that took long before its timing: the cases share what is left before kGpuTimingEndsByS.
  CHECK(shared_case_budget(3.0, 0.0, 2, kGpuTimingEndsByS - 3.0) == Catch::Approx(1.5));
  CHECK(shared_case_budget(3.0, 1.0, 1, kGpuTimingEndsByS - 0.2) == Catch::Approx(kMinCaseBudgetS));
  // A quick one keeps the shared budget.
  CHECK(shared_case_budget(3.0, 0.0, 3, 1.0) == Catch::Approx(kGpuTimingBudgetS / 3));
}

TEST_CASE("a case whose calls the judge could not resolve (median 0 past the round trip) is JE, never scored") {
  const auto why = unresolved_timing(0.0, 21, 14e-6);
  REQUIRE(why);
  CHECK(why->find("21 timed calls") != std::string::npos);
  CHECK(why->find("14.0 us") != std::string::npos);
  CHECK(why->find("not a verdict on the file") != std::string::npos);
  CHECK_FALSE(unresolved_timing(1e-7, 21, 14e-6));  // one resolved call time is a time
  CHECK_FALSE(unresolved_timing(0.0, 0, 14e-6));    // no timed call: nothing to judge
}

TEST_CASE("unresolved calls beside a resolved reference are FAIL: they end before their work") {
  RoundTrip rt;
  rt.subtracted_s = 263.7e-6;
  rt.noise_s = 8e-6;
  // vector-add's early-reply-kernel-in-flight on an H100: 0 past the round trip, the fast reference 239 us.
  const auto why = early_reply_forgery(0.0, 239e-6, "fast", rt);
  REQUIRE(why);
  CHECK(why->find("fast reference timed beside it") != std::string::npos);
  CHECK(why->find("cannot be trusted") != std::string::npos);
  // Both unresolved (another process time-slicing the GPU): the reference's median within the round trip's
  // noise, so the case stays JE; and a resolved median is no early reply.
  CHECK_FALSE(early_reply_forgery(0.0, 20e-6, "fast", rt));
  CHECK_FALSE(early_reply_forgery(0.0, 0.0, "fast", rt));
  CHECK_FALSE(early_reply_forgery(5e-6, 239e-6, "fast", rt));
}
