// MLE: every way a submission's memory ends a call, decided here. The runner detects what only it can see (an
// allocation refused under its address-space limit, std::bad_alloc, a device allocation past the problem's
// limit: protocol::Reply::memory_limit); the session measures the family after a call and sees a file-size
// signal; laid_case asks workspace_size(). Each finding is made an MLE by one function here, and a call whose
// outcome is CallOutcome::OutOfMemory is MLE (judge/verdicts/outcome.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "sdk/problem.h"
#include "judge/isolation/call_outcome.h"

namespace hpcjudge {

// The host memory a submission's process may take: the arena of its largest
// case twice over, plus 4 GiB for the runtime, its threads and the cache flush;
// at most `cap` bytes where one is set (HPCJUDGE_MEMORY_LIMIT; 0: none).
// The runner applies it to the address space of a CPU problem's process and to
// the private writable memory of a GPU problem's (hpcjudge-runner --memory-limit).
size_t host_memory_limit(const Problem& p, size_t cap = 0);

// The least a cap may be for the cases a grade runs (the functional tests, and the performance cases where
// `benchmarks`): their largest arena twice over, plus the runtime's share: 512 MiB for a CPU problem's process
// (a runner of softmax-cpu's tests peaks at 65 MiB of address space on 2 cores), 4 GiB for a GPU problem's (what
// the CUDA runtime needs under the data limit has not been measured below that, so a cap never cuts it).
size_t host_memory_need(const Problem& p, bool benchmarks);

// A cap (bytes; 0: none) below host_memory_need: why it is refused, before anything is graded (every honest
// file would get MLE under it: the grader's setting, never a student's verdict), or none.
std::optional<std::string> memory_cap_refused(const Problem& p, size_t cap, bool benchmarks);

// A reply that is not ok: OutOfMemory where the runner refused memory (protocol::Reply::memory_limit), else Error.
CallOutcome::Status failed_reply_status(bool runner_refused_memory);

// The runner killed by SIGXFSZ under a memory limit: a memfd or shared-memory file grew past it. The
// message, or none where the signal is another or there is no limit.
std::optional<std::string> file_past_limit(bool signalled, int signal, size_t limit, const char* during);

// The family's host memory, counted while it is stopped after a call (`held`: resident memory on a CPU problem,
// plus `files` written in its TMPDIR, /tmp and /dev/shm), past the limit: the message, or none.
std::optional<std::string> family_past_limit(size_t held, size_t files, size_t processes, size_t limit,
                                             const char* during);

// workspace_size() (`call`, as written) asking for more than the problem's limit: the message, or none.
std::optional<std::string> workspace_past_limit(const std::string& call, uint64_t asked, size_t limit,
                                                const ProblemInfo& info);

}  // namespace hpcjudge
