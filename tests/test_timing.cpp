// The timing loop's statistics and stopping rule.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <thread>

#include "harness/timing.h"

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

TEST_CASE("the minimum number of runs is kept even past the budget") {
  TimingLoop loop({.warmup_runs = 1, .min_runs = 3, .max_runs = 100, .target_rel_sem = 1e-9, .budget_s = 0});
  int n = 0;
  while (loop.want_more()) loop.add(1.0 + n++);
  CHECK(loop.samples().size() == 3);
}
