// What the machine's CPUs did beside a grade's timing (judge/machine/cpu_activity.h): a process outside the
// judge's family is counted as another's work, the family's own (a child, reaped or not) is not; and the words a
// wide interval gets from it.
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <thread>

#include "judge/machine/cpu_activity.h"

using namespace hpcjudge;

namespace {

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Spins on a CPU for `seconds` of CPU time.
void spin(double seconds) {
  const double end = process_cpu_s() + seconds;
  volatile unsigned long x = 0;
  while (process_cpu_s() < end) x = x + 1;
}

// A process that spins `seconds` of CPU time outside this process's family (a grandchild whose parent has ended,
// so that init or the nearest reaper, not this process, is its parent). Returns when it has ended.
void spin_outside(double seconds) {
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (fork() == 0) {
      close(ready[0]);
      spin(seconds);
      _exit(0);  // the pipe's write end closes: the test reads its end of file
    }
    _exit(0);
  }
  close(ready[1]);
  waitpid(child, nullptr, 0);
  char c;
  while (read(ready[0], &c, 1) > 0) {
  }
  close(ready[0]);
}

}  // namespace

TEST_CASE("cpu activity: a process outside the family is another's work, a child's is the family's") {
  auto before = cpu_snapshot(getpid());
  if (!before) SKIP("no /proc/stat");
  const int cores = before->cpus;
  CHECK(cores >= 1);
  // A child that spins and is reaped: the family's time, not another's.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    spin(0.4);
    _exit(0);
  }
  waitpid(child, nullptr, 0);
  spin(0.2);  // this process itself
  auto mid = cpu_snapshot(getpid());
  REQUIRE(mid);
  // Other tests may run beside this one (ctest -j), so what else the machine ran is not known: the family's own
  // 0.6 s must be in the family's sum and out of the others'.
  const CpuActivity own = cpu_activity(*before, *mid);
  INFO("others " << own.others_s << " s, family " << mid->family_s - before->family_s << " s, busy "
                 << mid->busy_s - before->busy_s << " s in " << own.seconds << " s");
  CHECK(own.seconds > 0.5);
  CHECK(mid->family_s - before->family_s >= 0.5);  // the reaped child's 0.4 s (its parent's cutime) and 0.2 s
  CHECK(own.others_s <= (mid->busy_s - before->busy_s) - 0.5 + 0.05);

  // A process outside the family: its 0.5 s are another's, none of the family's.
  spin_outside(0.5);
  auto after = cpu_snapshot(getpid());
  REQUIRE(after);
  const CpuActivity other = cpu_activity(*mid, *after);
  INFO("others " << other.others_s << " s, family " << after->family_s - mid->family_s << " s in " << other.seconds
                 << " s");
  CHECK(other.others_s >= 0.4);
  CHECK(after->family_s - mid->family_s < 0.2);
  CHECK(other.others_s <= other.seconds * cores + 0.05);
}

TEST_CASE("cpu activity: what a wide interval says of it, and what the report keeps") {
  CpuActivity a;
  a.seconds = 5;
  a.cores = 16;
  CHECK(a.describe().empty());  // a quiet machine: nothing to say
  a.others_s = 3.2;
  CHECK(a.describe() == "other processes used 3.20 CPU-seconds in the 5.00 s of timing (4% of 16 cores)");
  a.steal_s = 1.6;
  CHECK(a.describe() ==
        "other processes used 3.20 CPU-seconds in the 5.00 s of timing (4% of 16 cores); the hypervisor took 1.60 "
        "CPU-seconds from this machine's cores (steal, 2%)");
  a.others_s = 0.1;  // under 1% of the cores' time: left out
  CHECK(a.describe() == "the hypervisor took 1.60 CPU-seconds from this machine's cores (steal, 2%)");
  const CpuActivity back = CpuActivity::from_json(a.to_json());
  CHECK(back.seconds == a.seconds);
  CHECK(back.others_s == a.others_s);
  CHECK(back.steal_s == a.steal_s);
  CHECK(back.cores == a.cores);
  CHECK(CpuActivity::from_json(nlohmann::json("edited by hand")).describe().empty());
}
