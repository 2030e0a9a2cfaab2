// Device memory that a submission allocates itself. The runner defines
// cudaMalloc, cudaMallocAsync, cudaMallocManaged, cudaMallocPitch,
// cudaMalloc3D, cudaMallocFromPoolAsync and their frees (device_memory.cpp):
// the submission, linked against the shared CUDA runtime, binds to these, which
// count the bytes it holds and forward to the runtime. An allocation that
// would take the bytes held past the call's limit is refused
// (cudaErrorMemoryAllocation) and remembered, and the call is MLE.
#pragma once
#include <cstddef>

namespace hpcjudge::device {

struct MemoryAccount {
  size_t held = 0;      // bytes the submission holds now
  size_t peak = 0;      // the most it held during the call
  size_t limit = 0;     // 0: none
  size_t refused = 0;   // the size of the first allocation refused for the limit (0: none)
  size_t refused_at = 0;  // bytes held when it was refused
};

// Starts counting a call against `limit` bytes (0: no limit): the peak starts at what is held.
void begin_call(size_t limit);
// The call's account.
MemoryAccount end_call();

// The runner's own allocations (its device arena, the L2 flush buffer) are not
// the submission's: they go uncounted while a RunnerAllocation is alive on the thread.
class RunnerAllocation {
 public:
  RunnerAllocation();
  ~RunnerAllocation();
  RunnerAllocation(const RunnerAllocation&) = delete;
  RunnerAllocation& operator=(const RunnerAllocation&) = delete;
};

}  // namespace hpcjudge::device
