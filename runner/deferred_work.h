// Work deferred past solve(): a host thread that solve() leaves running to
// finish the job after the timer stops. After each call the runner looks at
// every other thread of its process; one still running (not asleep) is
// watched for a moment, and one that keeps using the CPU through a second look
// is reported, so the call is RE, never a free speed-up. Idle helpers
// (OpenMP's pool, which the judge runs with OMP_WAIT_POLICY=passive, the CUDA
// runtime's threads) sleep and pass. Work left queued on a GPU stream needs
// none of this: the timed interval ends at cudaDeviceSynchronize().
#pragma once
#include <string>

namespace hpcjudge {

// "" when no other thread is working after the call, else what was seen.
std::string deferred_host_work();

}  // namespace hpcjudge
