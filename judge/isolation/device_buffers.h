// The judge's side of a GPU problem's buffers: one device allocation in the
// judge's own CUDA context, shared with the runner (protocol/device_share.h),
// which the judge fills before a call and reads after it while the
// submission's processes are stopped. Before a timed call it also resets
// what could carry data across the L2 flush: the persisting-L2 limit is set to
// 0 and persisting lines are reset to normal, then twice the L2 is written.
// A stage (JudgeDeviceOptions::stage) is device memory of the judge's alone,
// which no runner maps and which is never flushed from: each run's image is
// uploaded there once, and each side's buffers are copied from it on the device.
#pragma once
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "sdk/spans.h"

namespace hpcjudge {

class JudgeDevice {
 public:
  using Spans = hpcjudge::Spans;  // (offset, bytes), sorted
  virtual ~JudgeDevice() = default;
  // Grows the buffers to at least `bytes`. Returns a descriptor for the runner
  // when they were made anew (the caller sends and closes it), else -1.
  virtual int reserve(size_t bytes) = 0;
  // The buffers' size (the allocation granularity's multiple at or above what was reserved).
  virtual size_t size() const = 0;
  // The judge's host memory it uploads from and downloads to: `host`, of which [0, pinned) is pinned
  // (judge/isolation/pinned_images.h) and the rest not. A copy is split where the pinned memory ends: one that
  // ran past the end of a pinned range would be refused (cudaErrorInvalidValue).
  struct Host {
    std::byte* base = nullptr;
    size_t pinned = 0;
  };
  // Copies [0, bytes) of `host` to the device except the scratch spans, which get
  // garbage (fill_scratch) or are left as they are (a workspace setup() wrote).
  // `repeating` spans (an output's sentinel) hold a pattern whose period divides
  // kRepeatSeed: only their first kRepeatSeed bytes cross the bus, and the device
  // repeats them over the rest (copies that double what is done).
  static constexpr size_t kRepeatSeed = size_t{1} << 20;
  virtual void upload(Host host, size_t bytes, const Spans& scratch, bool fill_scratch = true,
                      const Spans& repeating = {}) = 0;
  // upload() from another JudgeDevice's buffers (of the same process) instead, device to device: [0, copied)
  // but the scratch spans from `other`, the rest of [0, bytes) but the scratch spans guard bytes (kGuardByte, the
  // guard word of a workspace, the only buffers there: sdk/arena.h; `other`'s layout may differ there:
  // another solution's workspaces).
  virtual void copy_from(const JudgeDevice& other, size_t copied, size_t bytes, const Spans& scratch,
                         bool fill_scratch = true) = 0;
  // Persisting-L2 reset and the L2 flush, then the device is idle.
  virtual void flush_caches() = 0;
  // Work of the judge's own, enqueued and waited for: a call's device work still
  // in flight then is either over or not yet in the outputs the judge reads.
  virtual void fence() = 0;
  virtual void download(Host host, size_t bytes, const Spans& scratch) = 0;
};

struct JudgeDeviceOptions {
  // A stage: a plain allocation, never exported to a runner (reserve() returns -1), and no L2 flush buffer
  // (flush_caches() throws): only upload() into it and other JudgeDevices' copy_from() out of it.
  bool stage = false;
};

// The judge's device buffers on `device`; throws std::runtime_error (why) where
// this machine cannot share device memory between processes, or the judge was
// built without CUDA.
std::unique_ptr<JudgeDevice> make_judge_device(int device, const JudgeDeviceOptions& opt = {});

}  // namespace hpcjudge
