// A GPU problem's buffers under CPU emulation: the shared host arena, mapped at
// the start of the emulator's device range (emulate/runtime/runner.h), so the
// submission's kernels reach it as device memory and every access is checked
// against the call's buffers.
#include <algorithm>
#include <stdexcept>

#include "emulate/runtime/runner.h"
#include "runner/emulation_counts.h"
#include "runner/runner_memory.h"

namespace hpcjudge {

namespace {

class EmulatedMemory : public RunnerMemory {
 public:
  // The emulator takes the arena's descriptor (and closes it): the submission, loaded later, finds none.
  explicit EmulatedMemory(int fd) { hpcjudge_emu::runner::setup(fd); }
  void map_arena(size_t bytes) override {
    base_ = hpcjudge_emu::runner::map_arena(bytes);
    size_ = std::max(size_, bytes);
  }
  void* pointer(const protocol::CallArg& a, size_t index) override {
    if (a.offset + a.bytes > size_) throw std::runtime_error("a buffer outside the mapped arena");
    if (index == 0) buffers_.clear();
    buffers_.push_back({a.offset, a.bytes, a.elem, a.name.empty() ? "buffer " + std::to_string(index) : a.name});
    return base_ + a.offset;
  }
  void begin_call(const CallStart& start) override {
    hpcjudge_emu::runner::set_buffers(buffers_);
    hpcjudge_emu::runner::begin_call(start.device_memory_limit);
    counting_ = start.count_accesses;
    hpcjudge_emu::runner::count_accesses(counting_);
  }
  CallEnd end_call() override {
    CallEnd e;
    const hpcjudge_emu::runner::Ledger l = hpcjudge_emu::runner::ledger();  // before end_call() lifts the limit
    e.error = hpcjudge_emu::runner::end_call().error;
    e.device_peak_bytes = l.peak;
    e.device_held_bytes = l.held;
    if (l.refused > 0) e.refused(l.refused, l.refused_at, l.limit);
    if (counting_) {
      hpcjudge_emu::runner::count_accesses(false);
      e.emulation_counts = to_protocol(hpcjudge_emu::runner::take_counts());
      counting_ = false;
    }
    return e;
  }

 private:
  std::byte* base_ = nullptr;
  size_t size_ = 0;
  bool counting_ = false;
  std::vector<hpcjudge_emu::runner::Buffer> buffers_;
};

}  // namespace

std::unique_ptr<RunnerMemory> emulated_memory(int arena_fd) { return std::make_unique<EmulatedMemory>(arena_fd); }

}  // namespace hpcjudge
