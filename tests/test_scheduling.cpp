// How the judge tells that another process slowed one of its own runners or itself (judge/isolation/scheduling.h):
// fewer CPUs, a higher nice value, SCHED_IDLE or SCHED_BATCH, on any thread or on the main thread only; and what
// it leaves alone (a machine that takes a CPU from every process, a policy that is not lower, nothing changed).
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "judge/isolation/scheduling.h"

using namespace hpcjudge;

namespace {

cpu_set_t cpus(std::initializer_list<int> list) {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (int c : list) CPU_SET(c, &s);
  return s;
}

Scheduling plain(std::initializer_list<int> list) {
  Scheduling s;
  s.cpus = cpus(list);
  return s;
}

// A child that waits, with a second thread that waits too; killed and reaped at the end of the scope.
struct WaitingChild {
  pid_t pid = -1;
  WaitingChild() {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      std::thread([] { pause(); }).detach();
      (void)!write(ready[1], "x", 1);
      for (;;) pause();
    }
    char c;
    REQUIRE(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    close(ready[1]);
  }
  ~WaitingChild() {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  // Its thread other than the main one.
  pid_t second() const {
    for (int tries = 0; tries < 100; ++tries) {
      DIR* d = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
      pid_t found = 0;
      while (const dirent* e = readdir(d))
        if (const int tid = std::atoi(e->d_name); tid > 0 && tid != pid) found = tid;
      closedir(d);
      if (found) return found;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
  }
};

}  // namespace

TEST_CASE("scheduling: 0 is the calling thread") {
  const auto self = Scheduling::of(0), by_id = Scheduling::of(static_cast<pid_t>(gettid()));
  REQUIRE(self);
  REQUIRE(by_id);
  CHECK(CPU_EQUAL(&self->cpus, &by_id->cpus));
  CHECK(self->policy == by_id->policy);
  CHECK(self->nice == by_id->nice);
}

TEST_CASE("scheduling: a set of CPUs is written as the kernel lists it") {
  CHECK(cpu_list(cpus({0, 1, 2, 3, 8})) == "0-3,8");
  CHECK(cpu_list(cpus({5})) == "5");
  CHECK(cpu_list(cpus({0, 2, 4, 5})) == "0,2,4-5");
  CHECK(cpu_list(cpus({})) == "none");
}

TEST_CASE("scheduling: fewer CPUs, a higher nice value or a lower policy is slowed; the machine's own change is not") {
  const Scheduling start = plain({0, 1, 2, 3});
  const cpu_set_t all = cpus({0, 1, 2, 3});
  CHECK_FALSE(slowed(start, start, all));
  const auto pinned = slowed(start, plain({0}), all);
  REQUIRE(pinned);
  CHECK(*pinned == "may run on CPU 0 only (it started on 0-3)");
  CHECK(*slowed(start, plain({0, 2}), all) == "may run on CPUs 0,2 only (it started on 0-3)");
  // The judge itself lost CPUs 1-3 too (a cpuset made smaller): no one's doing of the runner's.
  CHECK_FALSE(slowed(start, plain({0}), cpus({0})));
  // More CPUs than it started with are no slower.
  CHECK_FALSE(slowed(plain({0}), plain({0, 1}), all));
  Scheduling niced = start;
  niced.nice = 19;
  CHECK(*slowed(start, niced, all) == "runs at nice 19 (it started at 0)");
  Scheduling lower_nice = start;
  lower_nice.nice = -5;
  CHECK_FALSE(slowed(start, lower_nice, all));
  Scheduling idle = start;
  idle.policy = SCHED_IDLE;
  CHECK(*slowed(start, idle, all) == "runs under SCHED_IDLE (it started under SCHED_OTHER)");
  Scheduling batch = start;
  batch.policy = SCHED_BATCH;
  CHECK(slowed(start, batch, all));
  CHECK_FALSE(slowed(idle, idle, all));  // started idle (inherited): as it started
  Scheduling fifo = start;
  fifo.policy = SCHED_FIFO;
  CHECK_FALSE(slowed(start, fifo, all));  // not a lower claim on the CPU
}

TEST_CASE("scheduling: another process's change to a waiting child's threads is found, on the thread it touched") {
  WaitingChild child;
  const auto start = Scheduling::of(child.pid);
  REQUIRE(start);
  CHECK_FALSE(slowed_thread(child.pid, *start, true));
  const pid_t second = child.second();
  REQUIRE(second > 0);
  SECTION("a higher nice value on its second thread: found looking at every thread, not at the main one only") {
    REQUIRE(setpriority(PRIO_PROCESS, static_cast<id_t>(second), start->nice + 3) == 0);
    const auto why = slowed_thread(child.pid, *start, true);
    REQUIRE(why);
    CHECK(*why == "thread " + std::to_string(second) + " runs at nice " + std::to_string(start->nice + 3) +
                      " (it started at " + std::to_string(start->nice) + ")");
    CHECK_FALSE(slowed_thread(child.pid, *start, false));
  }
  SECTION("SCHED_IDLE on its main thread") {
    const sched_param none{};
    REQUIRE(sched_setscheduler(child.pid, SCHED_IDLE, &none) == 0);
    const auto why = slowed_thread(child.pid, *start, false);
    REQUIRE(why);
    CHECK(why->find("runs under SCHED_IDLE") != std::string::npos);
  }
  SECTION("its main thread pinned to one CPU, where the machine has two") {
    if (CPU_COUNT(&start->cpus) < 2) SKIP("one CPU");
    int first = 0;
    while (!CPU_ISSET(first, &start->cpus)) ++first;
    const cpu_set_t one = cpus({first});
    REQUIRE(sched_setaffinity(child.pid, sizeof one, &one) == 0);
    const auto why = slowed_thread(child.pid, *start, true);
    REQUIRE(why);
    CHECK(why->find("may run on CPU " + std::to_string(first) + " only") != std::string::npos);
  }
  SECTION("a process that has ended is nothing found") {
    kill(child.pid, SIGKILL);
    waitpid(child.pid, nullptr, 0);
    CHECK_FALSE(slowed_thread(child.pid, *start, true));
  }
}
