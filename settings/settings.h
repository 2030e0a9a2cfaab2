// Every environment variable the judge and its runner read, declared once here (name, default, meaning, and
// whether it changes a grade), read once at the process's start (Settings::at_start(), the first thing each
// main() does) and nowhere else: no other product file calls getenv. A variable that may change a grade is
// recorded in the report where it is set to other than its default (Report::settings, the JSON's "settings"
// object), so that a grade made with one set never looks like a normal one. Where the judge sets a child's
// environment, the name comes from here too.
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpcjudge::settings {

// What a variable's value does to a grade.
enum class Effect {
  None,    // where files are found or kept, how text is shown, a hand-off between the judge's own processes
  Grade,   // may change a verdict, a score or how the calls were timed: recorded where set to other than its default
  Secret,  // changes the grade and is secret: recorded as "secret", its value never
};

struct Variable {
  const char* name;
  // The value that holds where it is unset, where that is one fixed value ("": unset is off, or the default is
  // worked out, as `meaning` says). A Grade variable set to exactly this is not recorded.
  std::string_view fallback;
  std::string_view meaning;
  Effect effect;
};

// The judge's.
inline constexpr Variable kRoot{"HPCJUDGE_ROOT", "",
                                "the tree the judge reads the problems' statements, reference solutions, tests and "
                                "the emulator's headers from; default: the source tree it was built from",
                                Effect::Grade};
inline constexpr Variable kCache{"HPCJUDGE_CACHE", "",
                                 "the cache (compiled references and submissions, the scale, reference answers), "
                                 "its entries keyed by machine, judge and problem version; default: the build's "
                                 "cache/ where its user owns it, else $XDG_CACHE_HOME/hpcjudge or ~/.cache/hpcjudge",
                                 Effect::None};
inline constexpr Variable kXdgCacheHome{"XDG_CACHE_HOME", "", "where a user's cache goes (an absolute path)",
                                        Effect::None};
inline constexpr Variable kHome{"HOME", "", "where a user's cache goes without XDG_CACHE_HOME: ~/.cache/hpcjudge",
                                Effect::None};
inline constexpr Variable kSecretSeed{"HPCJUDGE_SECRET_SEED", "",
                                      "the seed a batch hands its child judges (never on a command line); taken and "
                                      "scrubbed from the environment before anything starts",
                                      Effect::Secret};
inline constexpr Variable kTrace{"HPCJUDGE_TRACE", "",
                                 "set (any value): lines on stderr saying where the judge's and the runner's time "
                                 "goes; the runner's GPU calls are timed with device events too",
                                 Effect::Grade};
inline constexpr Variable kMemoryLimit{"HPCJUDGE_MEMORY_LIMIT", "",
                                       "a runner's host memory limit in MiB (its resident memory and its files in "
                                       "TMPDIR, /tmp and /dev/shm), below the problem's own (twice its largest case "
                                       "plus 4 GiB) on a grader with less to spare; refused below what the graded "
                                       "cases need (judge/verdicts/memory_limit.h)",
                                       Effect::Grade};
inline constexpr Variable kNoColor{"NO_COLOR", "", "set (any value): the human report without colour", Effect::None};
inline constexpr Variable kPath{"PATH", "", "where bwrap, sbatch, compute-sanitizer, ncu and perf are looked for",
                                Effect::None};
inline constexpr Variable kUser{"USER", "", "judge pack's name where git has no user.name", Effect::None};
inline constexpr Variable kToken{"HPCJUDGE_TOKEN", "",
                                 "judge submit's token (a participant's, from judge serve) where --token is not given",
                                 Effect::None};
// OpenMP's and OpenBLAS's, which the judge reads at its start and sets for itself before it starts again
// (judge/cli/main.cpp): its own threads sleep when idle, and none is bound to a CPU.
inline constexpr Variable kOmpWaitPolicy{"OMP_WAIT_POLICY", "passive",
                                         "how the judge's own OpenMP threads wait; another value keeps them spinning "
                                         "beside the timed calls",
                                         Effect::Grade};
inline constexpr Variable kOpenblasThreadTimeout{"OPENBLAS_THREAD_TIMEOUT", "4",
                                                 "how long (2^N cycles) the judge's OpenBLAS threads spin when idle",
                                                 Effect::Grade};
inline constexpr Variable kOpenblasCoretype{"OPENBLAS_CORETYPE", "",
                                            "OpenBLAS's kernels; default: its own choice, or the judge's name for a "
                                            "CPU it takes for an older one (problems/families/matmul/reference.h)",
                                            Effect::None};
inline constexpr Variable kOmpProcBind{"OMP_PROC_BIND", "",
                                       "set to other than false: the judge starts again with it false (no thread "
                                       "bound to a CPU)",
                                       Effect::None};
inline constexpr Variable kOmpPlaces{"OMP_PLACES", "", "set: the judge starts again without it", Effect::None};
inline constexpr Variable kGompCpuAffinity{"GOMP_CPU_AFFINITY", "", "set: the judge starts again without it",
                                           Effect::None};
// The runner's, set by the judge for it.
inline constexpr Variable kTmpdir{"TMPDIR", "",
                                  "the runner's one folder for files (the judge makes it; /tmp where unset)",
                                  Effect::None};
inline constexpr Variable kPrivateTmp{"HPCJUDGE_PRIVATE_TMP", "",
                                      "1: the runner's TMPDIR and /dev/shm are mounts of its own (set by the judge's "
                                      "child as root, by the sandbox, or by the runner itself)",
                                      Effect::None};
inline constexpr Variable kProfileRange{"HPCJUDGE_PROFILE_RANGE", "",
                                        "1: the runner marks each call of solve() with an NVTX range and measures "
                                        "its CPU time (judge profile sets it for its runners)",
                                        Effect::Grade};

// The registry, in the order above.
inline constexpr const Variable* kAll[] = {&kRoot,          &kCache,        &kXdgCacheHome,
                                           &kHome,          &kSecretSeed,   &kTrace,        &kMemoryLimit,
                                           &kNoColor,       &kPath,         &kUser,         &kToken,
                                           &kOmpWaitPolicy, &kOpenblasThreadTimeout, &kOpenblasCoretype,
                                           &kOmpProcBind,   &kOmpPlaces,    &kGompCpuAffinity,
                                           &kTmpdir,        &kPrivateTmp,   &kProfileRange};

// Each variable's value, as the environment had it when read.
class Settings {
 public:
  // The environment's values now.
  static Settings read();
  // The process's, read once, at its first use (each main() calls it first).
  static const Settings& at_start();

  std::optional<std::string> get(const Variable& v) const;
  bool is_set(const Variable& v) const { return slot(v).set; }
  // The Grade and Secret variables set to other than their fallback, in the registry's order: name and value
  // ("secret" for a Secret one).
  std::vector<std::pair<std::string, std::string>> grade_changing() const;

 private:
  struct Slot {
    bool set = false;
    std::string value;  // a Secret one's only until take()
  };
  Slot& slot(const Variable& v);
  const Slot& slot(const Variable& v) const;
  Slot slots_[std::size(kAll)];
  friend void put(const Variable& v, const std::string& value);
  friend std::optional<std::string> take(const Variable& v);
};

// Sets `v` in this process's environment and in at_start()'s values (the runner, once it made its private tmp).
// Before any other thread starts.
void put(const Variable& v, const std::string& value);
// The value of `v` at the start, then gone from at_start()'s values (which still say it was set), from the
// environment and from the memory /proc/PID/environ shows (the secret seed). Before anything starts.
std::optional<std::string> take(const Variable& v);
// PATH's folders, in order (an empty entry kept empty).
std::vector<std::string> path_folders();

}  // namespace hpcjudge::settings
