#include "judge/verdicts/memory_limit.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "sdk/arena.h"
#include "sdk/checker.h"

namespace hpcjudge {

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kRuntimeShare = size_t{4} << 30;  // the runtime, its threads and the cache flush
constexpr size_t kCpuRuntimeNeed = 512 * kMiB;

// The largest arena of the problem's tests, and of its performance cases where `benchmarks`.
size_t largest_arena(const Problem& p, bool benchmarks) {
  size_t largest = 0;
  std::vector<Case> cases = p.tests();
  if (benchmarks)
    for (const Case& c : p.benchmarks()) cases.push_back(c);
  for (const Case& c : cases) largest = std::max(largest, ArenaLayout::plan(p.signature(c).buffers).total);
  return largest;
}

}  // namespace

size_t host_memory_limit(const Problem& p, size_t cap) {
  const size_t own = 2 * largest_arena(p, true) + kRuntimeShare;
  return cap == 0 ? own : std::min(own, cap);
}

size_t host_memory_need(const Problem& p, bool benchmarks) {
  return 2 * largest_arena(p, benchmarks) + (p.info().kind == Kind::GPU ? kRuntimeShare : kCpuRuntimeNeed);
}

std::optional<std::string> memory_cap_refused(const Problem& p, size_t cap, bool benchmarks) {
  const size_t need = host_memory_need(p, benchmarks);
  if (cap == 0 || cap >= need) return std::nullopt;
  return "HPCJUDGE_MEMORY_LIMIT=" + std::to_string(cap / kMiB) + " MiB is below what " + p.info().slug + "'s " +
         (benchmarks ? "tests and performance cases" : "tests") + " need (" + std::to_string((need + kMiB - 1) / kMiB) +
         " MiB: the largest case's buffers twice over, plus " +
         (p.info().kind == Kind::GPU ? "4 GiB for the CUDA runtime" : "512 MiB for the runtime") +
         "): every file would get MLE";
}

CallOutcome::Status failed_reply_status(bool runner_refused_memory) {
  return runner_refused_memory ? CallOutcome::OutOfMemory : CallOutcome::Error;
}

std::optional<std::string> file_past_limit(bool signalled, int signal, size_t limit, const char* during) {
  if (!signalled || signal != SIGXFSZ || limit == 0) return std::nullopt;
  return std::string("grew a file (a memfd or shared memory) past the memory limit of ") + std::to_string(limit) +
         " bytes during " + during;
}

std::optional<std::string> family_past_limit(size_t held, size_t files, size_t processes, size_t limit,
                                             const char* during) {
  if (limit == 0 || held <= limit) return std::nullopt;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "its processes held %.2f GiB of host memory together after %s (resident memory and shared-memory "
                "files, in %zu processes, with %.2f GiB of files in its TMPDIR, /tmp and /dev/shm), past the memory "
                "limit of %.2f GiB",
                static_cast<double>(held) / (1 << 30), during, processes, static_cast<double>(files) / (1 << 30),
                static_cast<double>(limit) / (1 << 30));
  return std::string(buf);
}

std::optional<std::string> workspace_past_limit(const std::string& call, uint64_t asked, size_t limit,
                                                const ProblemInfo& info) {
  if (asked <= limit) return std::nullopt;
  return call + " asked for " + std::to_string(asked) + " bytes; the limit is " + std::to_string(limit) + " (" +
         format_value(info.workspace_per_input_byte) + " bytes per input byte plus " +
         std::to_string(info.workspace_floor_bytes >> 20) + " MiB)";
}

}  // namespace hpcjudge
