// The judge command: the subcommand named by argv[1] (judge/cli/commands.h, one file each), else `judge SLUG
// [FILE]`.
//   judge list                                   problems, kind, points, runnable here
//   judge all [--no-bench] [--seed S]            grade every problem's solution.* (make judge)
//   judge SLUG [FILE] [--json OUT] [--gradescope OUT] [--junit OUT] [--verbose] [--seed S | --seed-file F] [--no-bench] [--threads T] [--device N]
//              [--sanitize] [--sandbox]
//   judge batch DIR [--out RESULTS] [--force] [--regrade-noisy] [--problems a,b] [--junit] [--seed-file F] [--no-bench] [--slurm ...]
//   judge leaderboard RESULTS
//   judge profile SLUG [FILE] [--case NAME]         one performance case under ncu (GPU) or perf stat (CPU)
//   judge pack [SLUG | SLUG=FILE ...] -o FILE [--name NAME]
//   judge bench [SLUG...]
//   judge serve --data DIR [--listen HOST:PORT] [--problems a,b] [--devices 0,1] ...   (server/, where built)
//   judge submit SLUG FILE --server URL [--token T] [--json F]
//   judge worker --server URL --worker-token-file F [--device N]
// Exit status: 0 only on AC (for `all`: every problem AC or SKIP), 1 on any
// other verdict, 2 on bad usage.
#include <fcntl.h>
#include <sched.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "problems/families/matmul/reference.h"
#include "judge/classroom/batch.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/isolation/family.h"
#include "judge/reports/text.h"
#include "settings/settings.h"

using namespace hpcjudge;
using namespace hpcjudge::cli;

namespace {

// The secret seed a batch hands its child judges (never on a command line, where
// /proc/PID/cmdline shows it to every process): taken from the environment and
// scrubbed from it, and from the memory /proc/PID/environ shows, before anything starts.
std::optional<std::string> take_secret_seed() { return settings::take(settings::kSecretSeed); }

#ifndef HPCJUDGE_HAVE_SERVER
// `judge serve`, `submit` and `worker` in a judge built without the server's libraries (cmake/server.cmake).
int judge_without_server(int, char** argv, const Paths&, GradingFlags&) {
  std::fprintf(stderr, "judge %s: this judge was built without the server: install libcpp-httplib-dev, "
               "libsqlite3-dev and libsodium-dev (tools/install-deps.sh) and build it again\n", argv[0]);
  return 2;
}
#endif

int run(int argc, char** argv) {
  using Command = int (*)(int, char**, const Paths&, GradingFlags&);
  static const std::map<std::string, Command> kCommands = {
      {"list", judge_list},   {"all", judge_all},         {"batch", judge_batch}, {"bench", judge_bench},
      {"leaderboard", judge_leaderboard}, {"profile", judge_profile}, {"pack", judge_pack},
      {"statements", judge_statements},
#ifdef HPCJUDGE_HAVE_SERVER
      {"serve", judge_serve}, {"submit", judge_submit}, {"worker", judge_worker},
#else
      {"serve", judge_without_server}, {"submit", judge_without_server}, {"worker", judge_without_server},
#endif
  };
  GradingFlags flags;
  flags.secret_seed = take_secret_seed();
  const Paths paths = Paths::discover();
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (const auto it = kCommands.find(cmd); it != kCommands.end()) return it->second(argc - 1, argv + 1, paths, flags);
  return judge_grade(argc, argv, paths, flags);
}

}  // namespace

int main(int argc, char** argv) {
  // Standard input, output or error closed (a job started without them): /dev/null there, or the first files the
  // judge opens would take those numbers, its channel to a runner where the runner's standard input goes (every
  // runner then failed with "mmap arena: Permission denied").
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) < 0) return 2;
  // The judge's own threads (its references' OpenMP and OpenBLAS) must sleep when
  // idle, not spin: a spinning judge thread takes the CPU a resumed runner needs,
  // and the judge's clock would count the wait. OpenBLAS's workers otherwise spin
  // for 2^28 cycles (about 0.1 s) after each reference matmul, through the timed
  // calls that follow it. Both libraries read their setting once, at load: set
  // them and start again.
  // OpenBLAS's kernels likewise, where it took this CPU for an older one (problems/families/matmul/reference.h): the judge's own
  // references and the runners (matmul-cpu's vendor anchor) inherit the name.
  // And no OpenMP thread bound to a CPU by the environment (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY, which
  // clusters often set for their users): bound at its first parallel region, the judge's own thread kept one CPU,
  // and every thread it started afterwards, every runner among them, inherited that one CPU (with
  // OMP_PROC_BIND=true on the 2-core VM, the submission's and the fast reference's runners each ran on CPU 0
  // alone). Off for the runners too, which inherit this environment: each side of a ratio is as the other, and a
  // rival's threads never bind themselves away from how they started (judge/isolation/scheduling.h). A
  // submission binds its own threads in its code, if it wants them bound.
  using namespace settings;
  const Settings& env = Settings::at_start();  // every variable the judge reads, read now (settings/settings.h)
  const std::optional<std::string> bind = env.get(kOmpProcBind);
  const bool bound = (bind && *bind != "false") || env.is_set(kOmpPlaces) || env.is_set(kGompCpuAffinity);
  const char* coretype = env.is_set(kOpenblasCoretype) ? nullptr : reference::openblas_coretype_to_name();
  const bool wait_policy = env.is_set(kOmpWaitPolicy), thread_timeout = env.is_set(kOpenblasThreadTimeout);
  if (!wait_policy || !thread_timeout || coretype || bound) {
    if (!wait_policy) setenv(kOmpWaitPolicy.name, kOmpWaitPolicy.fallback.data(), 1);
    if (!thread_timeout) setenv(kOpenblasThreadTimeout.name, kOpenblasThreadTimeout.fallback.data(), 1);
    if (coretype) setenv(kOpenblasCoretype.name, coretype, 1);
    if (bound) {
      setenv(kOmpProcBind.name, "false", 1);
      unsetenv(kOmpPlaces.name);
      unsetenv(kGompCpuAffinity.name);
      // OpenMP bound this thread as it loaded, and exec keeps the binding: every CPU back (the kernel keeps
      // those of the cpuset). ./judge/judge unsets the variables before it starts the judge, which keeps a
      // `taskset` it was started under.
      cpu_set_t every;
      CPU_ZERO(&every);
      for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &every);
      sched_setaffinity(0, sizeof every, &every);
    }
    execv("/proc/self/exe", argv);
  }
  // The judge holds the reference answers: a submission running as the same
  // (non-root) user may not read its memory through /proc or ptrace.
  prctl(PR_SET_DUMPABLE, 0);
  // Whatever a runner's processes leave behind (a double fork, setsid) becomes
  // the judge's child, so it is stopped with them between calls and killed at
  // the end (judge/isolation/family.h).
  become_subreaper();
  // Every timed call allocates and frees inputs, reference answers and copies
  // of hundreds of MiB: keep freed memory in the heap for the next call rather
  // than give it back to the kernel (glibc maps large blocks anew each time),
  // so that the judge's own work between timed calls is not mostly page faults.
  // Trimming off (-1), not at INT_MAX: prefix-sum's n256M reference frees 3 GiB a
  // run, past any int threshold, and was faulted back in every run (786,400 minor
  // faults; 1.5-3.6 s a run on the 2-core VM, 0.25 s without; 2.5 s on the H200).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "judge: %s\n", terminal_text(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "judge: internal error (JE, the judge's own fault): %s\n", terminal_text(e.what()).c_str());
    return 1;
  }
}
