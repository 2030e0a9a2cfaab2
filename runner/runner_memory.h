// Where solve()'s buffers are in the runner, one implementation per kind of
// memory, so the runner's request loop has no device code of its own:
//   host_memory     CPU problems: the judge's shared host arena (a sealed memfd).
//   judge_device    GPU problems: the judge's own device buffers, imported from
//                   the descriptor it sends (protocol/device_share.h). The judge
//                   uploads, flushes and downloads; the runner only calls.
//   runner_device   GPU problems where device memory cannot be shared, and under
//                   compute-sanitizer (one allocation per buffer, so the tool sees
//                   every access outside one): the runner's own device memory,
//                   filled from and copied back to the host arena by the untimed
//                   Upload and Download requests.
//   emulated_memory GPU problems under CPU emulation (judge --emulate): the host
//                   arena, mapped into the emulator's device range; the emulator
//                   counts the submission's device memory and reports its errors.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/protocol.h"

namespace hpcjudge {

// How a call ended on the device: "" or the CUDA error, whether the context is
// lost, and the device memory the submission held.
struct CallEnd {
  std::string error;
  // HPCJUDGE_TRACE, a GPU call: when the GPU took up the call's work, on the runner's steady clock (ns): the
  // host's moment after the synchronise less the GPU's time between events of this context before and after.
  std::optional<int64_t> gpu_began_ns;
  // CallStart::device_time, a GPU call: the GPU's time between those events (Reply::device_seconds).
  std::optional<double> device_seconds;
  bool fatal = false;
  bool memory_refused = false;
  std::string memory_message;
  std::optional<size_t> device_peak_bytes;
  std::optional<size_t> device_held_bytes;  // emulation: left allocated at the end of the call
  std::optional<protocol::EmulationCounts> emulation_counts;  // emulation, CallStart::count_accesses
  // An allocation refused at the case's limit: the cause (whatever the submission
  // did with the error afterwards), its words, and the peak it would have reached.
  void refused(size_t bytes, size_t holding, size_t limit) {
    memory_refused = true;
    memory_message = "solve() asked for " + std::to_string(bytes) + " bytes of device memory while holding " +
                     std::to_string(holding) + "; the limit for this case is " + std::to_string(limit) + " bytes";
    device_peak_bytes = holding + bytes;
  }
};

// The shared host arena (the judge's sealed memfd), mapped in the runner.
class ArenaMapping {
 public:
  explicit ArenaMapping(int fd) : fd_(fd) {}
  ~ArenaMapping();
  ArenaMapping(const ArenaMapping&) = delete;
  ArenaMapping& operator=(const ArenaMapping&) = delete;
  void map(size_t bytes);  // at least its first `bytes`
  // Memfd `fd`'s first `bytes` mapped over this mapping's (at most its size), in place of its own file's.
  void overlay(int fd, size_t bytes);
  std::byte* base() const { return base_; }
  size_t size() const { return size_; }

 private:
  int fd_;
  std::byte* base_ = nullptr;
  size_t size_ = 0;
  size_t overlaid_ = 0;  // the first bytes mapped from the common arena (overlay())
};

// What the runner's memory is told as a call begins.
struct CallStart {
  size_t device_memory_limit = 0;  // GPU: what the submission may hold allocated (0: none)
  bool device_time = false;        // GPU: the call's device time by events too (Request::device_time)
  bool count_accesses = false;     // emulation: the kernels' memory requests counted (Request::count_accesses)
};

class RunnerMemory {
 public:
  virtual ~RunnerMemory() = default;
  // The host arena's first `bytes` (the memfd passed at start), mapped here.
  virtual void map_arena(size_t bytes) = 0;
  // The grade's common arena (the descriptor sent with the request) mapped over the host arena's first `bytes`,
  // which map_arena() mapped: a CPU problem's inputs and outputs on the same pages for every runner.
  virtual void map_common(int fd, size_t bytes);
  // The judge's device buffers, from the descriptor sent with the request.
  virtual void map_device(int fd, size_t bytes);
  // keep_workspace: the workspace holds what setup() wrote, so it is not filled with garbage.
  virtual void upload(const std::vector<protocol::CallArg>& args, size_t bytes, bool keep_workspace);
  virtual void download(const std::vector<protocol::CallArg>& args, size_t bytes);
  // Where buffer argument `a` (the `index`-th buffer of the call) is, for solve().
  virtual void* pointer(const protocol::CallArg& a, size_t index) = 0;
  // Around the call: counting the submission's device memory, then
  // synchronising and collecting errors (GPU).
  virtual void begin_call(const CallStart& start) { (void)start; }
  virtual CallEnd end_call() { return {}; }
  virtual nlohmann::json sensors() { return nlohmann::json::object(); }
  // A tiny operation on the device (GPU), waited for: what a ping does there.
  virtual void touch() {}
};

std::unique_ptr<RunnerMemory> host_memory(int arena_fd);
// Built with the CUDA emulator only (runner/emulated_memory.cpp).
std::unique_ptr<RunnerMemory> emulated_memory(int arena_fd);

// Built with the CUDA toolkit only (runner/device.cpp).
std::unique_ptr<RunnerMemory> judge_device(int device, int arena_fd);
std::unique_ptr<RunnerMemory> runner_device(int device, int arena_fd, bool exact_buffers);

}  // namespace hpcjudge
