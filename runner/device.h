// The GPU side of the runner (built when the CUDA toolkit is found): the
// device's description and sensors, and the runner's own device arena for
// the runner-held mode (runner/runner_memory.h: under compute-sanitizer, or
// where device memory cannot be shared with the judge). That arena mirrors the
// shared host arena byte for byte, guard zones and sentinels included: the
// untimed Upload request copies the host arena up, Download copies it back, so
// the judge checks a GPU call with the same code as a CPU call.
#pragma once
#include <cstddef>
#include <cstdint>
#include "protocol/json.h"
#include <string>
#include <utility>
#include <vector>

#include "sdk/spans.h"

namespace hpcjudge::device {

// {"devices": n, "device": {...}} for device `index`, or {"devices": 0, "error": "..."}.
nlohmann::json probe(int index);

// SM clock (MHz) and temperature (C) through NVML, loaded at run time so
// that machines without a driver still run CPU problems; {} without NVML.
nlohmann::json sensors(int index);

class DeviceArena {
 public:
  explicit DeviceArena(int index);  // selects the device and creates its context
  ~DeviceArena();
  // (offset, bytes) spans of the arena.
  using Spans = hpcjudge::Spans;
  // Copies `bytes` of the host arena to the device (growing it as needed),
  // except the `scratch` spans (workspaces), which are filled with garbage on
  // the device instead: never copied, and never the same twice (fill_scratch
  // false: left as they are, a workspace holding what setup() wrote).
  void upload(std::byte* host, size_t bytes, const Spans& scratch, bool fill_scratch = true);
  // Copies the arena back, except the scratch spans.
  void download(std::byte* host, size_t bytes, const Spans& scratch);
  std::byte* base() const { return base_; }
  // Writes twice the L2's size, so the timed call starts with a cold L2.
  void flush_l2();

  // Exact mode, for runs under compute-sanitizer: each buffer (offset, bytes in
  // the host arena) gets an allocation of exactly its size, so the tool sees
  // any access outside a buffer, reads included.
  // Buffer i is scratch when scratch[i]: filled with garbage (unless !fill_scratch), not copied back.
  void upload_exact(std::byte* host, const Spans& buffers, const std::vector<bool>& scratch, bool fill_scratch = true);
  void download_exact(std::byte* host, const Spans& buffers, const std::vector<bool>& scratch);
  void* exact(size_t i) const { return exact_[i].first; }

 private:
  std::vector<std::pair<void*, size_t>> exact_;
  void pin(std::byte* host, size_t bytes);
  std::byte* base_ = nullptr;
  size_t size_ = 0;
  std::byte* pinned_ = nullptr;
  size_t pinned_size_ = 0;
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
};

// Synchronises and collects what solve() left behind: "" when all is well,
// else the CUDA error's name and text. `sticky` says the context is lost.
std::string finish_call(bool& sticky);
void synchronize();
// Launches one thread's kernel that zeroes `word` (device memory) on the legacy stream (runner/device_touch.cu);
// cudaGetLastError says whether the launch took.
void launch_touch(uint32_t* word);

}  // namespace hpcjudge::device
