// Child processes of the judge: a runner's user id is its own, so that ending
// one runner (a kill of every process of its user) never ends another the same
// judge holds at that moment, such as the main runner idling while
// compute-sanitizer's runner checks for races.
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <set>

#include "judge/isolation/process.h"

using namespace hpcjudge;

TEST_CASE("process: every runner of a judge gets a user id of its own") {
  std::set<unsigned> ids;
  for (int i = 0; i < 64; ++i) ids.insert(fresh_runner_uid());
  CHECK(ids.size() == 64);
  CHECK(*ids.begin() >= 2'000'000'000u);
  CHECK(*ids.rbegin() < (1u << 31));
}

TEST_CASE("process: killing one runner's user leaves the other runner running") {
  if (geteuid() != 0) SKIP("needs root, to start children as other users");
  SpawnOptions a, b;
  a.argv = b.argv = {"sleep", "30"};
  a.uid = fresh_runner_uid();
  b.uid = fresh_runner_uid();
  Child first(a), second(b);
  first.kill();
  first.reap();
  CHECK_FALSE(second.wait(-1, Clock::now() + std::chrono::milliseconds(300)) == Child::Wake::Exited);
  CHECK(second.running());
  second.kill();
  CHECK_FALSE(second.reap().exited);
}
