// What the CUDA emulator counted in one solve() call (Request::count_accesses under --emulate): per kernel, its
// memory traffic as a GPU's memory system sees it (warp-level requests, 32-byte sectors, shared-memory bank
// conflicts), the lanes active per warp instruction, barriers and atomics, and the same figures per line of the
// submission. The runner fills it from the emulator's counters (runner/emulated_memory.cpp); the judge turns it
// into an estimated time (judge/estimate/). The runner's word: an estimate's input, never a verdict's.
//
// A warp-level request is the accesses of the lanes of one warp that ran the same instruction instance (the same
// code address, the same execution of it by each lane since the block's last barrier); a vector access (a float4)
// is one access, as on the GPU. Global: the device's memory (cudaMalloc'd, managed, the judge's buffers); shared:
// __shared__ and dynamic shared memory. Not counted: host and local (stack) accesses, __device__ and __constant__
// variables (ordinary variables of the submission under emulation), std::atomic in device code.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "protocol/json.h"

namespace hpcjudge::protocol {

struct GlobalCounts {
  uint64_t requests = 0;          // warp-level requests
  uint64_t sectors = 0;           // distinct 32-byte segments per request, summed over requests
  uint64_t bytes_requested = 0;   // the bytes the active lanes asked for (coalescing = bytes_requested / (32 * sectors))
  uint64_t distinct_sectors = 0;  // distinct 32-byte sectors of each launch, summed over launches (a lower bound on DRAM traffic)
};

struct SharedCounts {
  uint64_t requests = 0;    // warp-level requests
  uint64_t wavefronts = 0;  // the sum over requests of its conflict degree (1 = no conflict)
  // A request's degree: over the 32 banks (bank = (address / 4) % 32), the most distinct 4-byte words in one bank
  // (lanes reading one word share it: a broadcast, no conflict). max_degree: the worst request's.
  uint64_t max_degree = 0;
};

struct AtomicCounts {
  uint64_t count = 0;             // atomic operations (atomicAdd and kin, one per lane), global and shared
  uint64_t max_same_address = 0;  // the most atomics on one address within a launch (contention)
  // The most floating-point atomics on one address within a launch: each lane's is a step of its own at the
  // address's L2 slice, where the compiler combines a warp's integer atomics on one word into one.
  uint64_t max_same_address_floating = 0;
};

// One source line of the submission: `file` is the base name of the file it was compiled from (the judge's copy,
// solution.cu; the judge shows the student's name), `line` as the student wrote it (the rewrite keeps lines).
struct LineCounts {
  std::string file;
  int line = 0;
  uint64_t global_requests = 0, sectors = 0, bytes_requested = 0;
  uint64_t shared_requests = 0, wavefronts = 0;
};

// One kernel (by name) over every launch of it in the call; the shape is its last launch's.
struct KernelCounts {
  std::string name;
  uint64_t launches = 0;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint64_t dynamic_shared_bytes = 0, static_shared_bytes = 0;
  uint64_t threads = 0;  // threads run, over its launches
  GlobalCounts global;
  SharedCounts shared;
  // Over memory instructions, barriers and warp collectives: warp instructions and the lanes active in them
  // (mean = active / instr).
  uint64_t warp_instructions = 0, active_lanes = 0;
  uint64_t barriers = 0;  // __syncthreads (and its kin) per warp: a warp's arrival counts once
  AtomicCounts atomics;
  std::vector<LineCounts> lines;  // the submission's lines that made a global or shared request, by file and line
};

struct EmulationCounts {
  uint64_t launches = 0;    // kernel launches in the call
  // cudaDeviceSynchronize, cudaThreadSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cudaMemcpy and
  // cudaMemcpyTo/FromSymbol (not their Async forms, not cudaMemcpy2D).
  uint64_t host_syncs = 0;
  std::vector<KernelCounts> kernels;
};

void to_json(nlohmann::json& j, const EmulationCounts& c);
void from_json(const nlohmann::json& j, EmulationCounts& c);  // throws nlohmann::json::exception on a bad shape

}  // namespace hpcjudge::protocol
