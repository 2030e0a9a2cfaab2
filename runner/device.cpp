#include "runner/device.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "runner/device_memory.h"
#include "protocol/device_share.h"
#include "sdk/spans.h"
#include "sdk/timing.h"
#include "runner/runner_memory.h"

namespace hpcjudge::device {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

std::string describe(cudaError_t e) { return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"; }

// The few NVML entry points the report needs, loaded with dlopen.
struct Nvml {
  using Device = void*;
  int (*init)() = nullptr;
  int (*by_pci)(const char*, Device*) = nullptr;
  int (*clock)(Device, int, unsigned*) = nullptr;
  int (*temperature)(Device, int, unsigned*) = nullptr;
  int (*driver_version)(char*, unsigned) = nullptr;
  bool ok = false;
  Nvml() {
    void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    init = reinterpret_cast<int (*)()>(dlsym(h, "nvmlInit_v2"));
    by_pci = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock = reinterpret_cast<int (*)(Device, int, unsigned*)>(dlsym(h, "nvmlDeviceGetClockInfo"));
    temperature = reinterpret_cast<int (*)(Device, int, unsigned*)>(dlsym(h, "nvmlDeviceGetTemperature"));
    driver_version = reinterpret_cast<int (*)(char*, unsigned)>(dlsym(h, "nvmlSystemGetDriverVersion"));
    ok = init && by_pci && clock && temperature && init() == 0;
  }
};

Nvml& nvml_library() {
  static Nvml nvml;
  return nvml;
}

}  // namespace

nlohmann::json probe(int index) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    return {{"devices", 0}, {"error", e != cudaSuccess ? describe(e) : std::string("no CUDA device")}};
  if (index < 0 || index >= count)
    return {{"devices", count}, {"error", "no CUDA device " + std::to_string(index)}};
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, index), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, index);
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  Nvml& nvml = nvml_library();
  char nvidia_driver[96] = "unknown (no NVML)";
  if (nvml.ok && nvml.driver_version) nvml.driver_version(nvidia_driver, sizeof nvidia_driver);
  return {{"devices", count},
          {"device",
           {{"index", index},
            {"name", p.name},
            {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
            {"arch", "sm_" + std::to_string(p.major * 10 + p.minor)},
            {"sm_count", p.multiProcessorCount},
            {"memory_bytes", p.totalGlobalMem},
            {"l2_bytes", p.l2CacheSize},
            {"shared_memory_per_block_optin", p.sharedMemPerBlockOptin},
            {"driver", nvidia_driver},
            {"driver_cuda_version", version(driver)},
            {"cuda_runtime", version(runtime)},
            {"pci_bus_id", bus}}}};
}

nlohmann::json sensors(int index) {
  Nvml& nvml = nvml_library();
  if (!nvml.ok) return {};
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) != cudaSuccess) return {};
  Nvml::Device d = nullptr;
  if (nvml.by_pci(bus, &d) != 0) return {};
  unsigned sm = 0, temp = 0;
  nlohmann::json j;
  if (nvml.clock(d, /*NVML_CLOCK_SM*/ 1, &sm) == 0) j["sm_clock_mhz"] = sm;
  if (nvml.temperature(d, /*NVML_TEMPERATURE_GPU*/ 0, &temp) == 0) j["temperature_c"] = temp;
  return j;
}

DeviceArena::DeviceArena(int index) {
  RunnerAllocation mine;
  check(cudaSetDevice(index), "cudaSetDevice");
  check(cudaFree(nullptr), "creating the CUDA context");
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, index);
  flush_bytes_ = std::max<size_t>(2 * static_cast<size_t>(l2), size_t{8} << 20);
}

DeviceArena::~DeviceArena() {
  RunnerAllocation mine;
  for (auto& [p, n] : exact_) cudaFree(p);
  if (pinned_) cudaHostUnregister(pinned_);
  if (base_) cudaFree(base_);
  if (flush_) cudaFree(flush_);
}

void DeviceArena::pin(std::byte* host, size_t bytes) {
  if (host == pinned_ && bytes <= pinned_size_) return;
  if (pinned_) cudaHostUnregister(pinned_);
  pinned_ = nullptr;
  // Pinned transfers are several times faster; unpinned ones still work.
  if (cudaHostRegister(host, bytes, cudaHostRegisterDefault) == cudaSuccess) {
    pinned_ = host;
    pinned_size_ = bytes;
  } else {
    cudaGetLastError();
  }
}

using hpcjudge::around;
using hpcjudge::garbage_byte;

void DeviceArena::upload(std::byte* host, size_t bytes, const Spans& scratch, bool fill_scratch) {
  RunnerAllocation mine;
  if (bytes > size_) {
    if (base_) check(cudaFree(base_), "cudaFree");
    base_ = nullptr;
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "allocating the device buffers");
    base_ = static_cast<std::byte*>(p);
    size_ = bytes;
  }
  // Pinned whole: a copy that ran past the end of a pinned range (one pinned for a smaller case, or only up to
  // a workspace, with guard zones after it) would be refused with cudaErrorInvalidValue.
  pin(host, bytes);
  around(bytes, scratch, [&](size_t from, size_t to) {
    check(cudaMemcpy(base_ + from, host + from, to - from, cudaMemcpyHostToDevice), "copying the inputs to the device");
  });
  if (!fill_scratch) return;  // a workspace setup() wrote: kept
  const int g = garbage_byte();
  for (const auto& [off, n] : scratch) check(cudaMemset(base_ + off, g, n), "filling the workspace");
}

void DeviceArena::download(std::byte* host, size_t bytes, const Spans& scratch) {
  around(bytes, scratch, [&](size_t from, size_t to) {
    check(cudaMemcpy(host + from, base_ + from, to - from, cudaMemcpyDeviceToHost),
          "copying the outputs from the device");
  });
}

void DeviceArena::flush_l2() {
  RunnerAllocation mine;
  if (!flush_) check(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
  static unsigned char round = 0;
  check(cudaMemset(flush_, ++round, flush_bytes_), "flushing the L2");
}

void DeviceArena::upload_exact(std::byte* host, const Spans& buffers, const std::vector<bool>& scratch,
                               bool fill_scratch) {
  RunnerAllocation mine;
  exact_.resize(std::max(exact_.size(), buffers.size()), {nullptr, 0});
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto& [p, n] = exact_[i];
    if (n != buffers[i].second) {
      if (p) check(cudaFree(p), "cudaFree");
      p = nullptr;
      check(cudaMalloc(&p, buffers[i].second), "allocating a device buffer");
      n = buffers[i].second;
    }
    if (scratch[i]) {
      if (fill_scratch) check(cudaMemset(p, garbage_byte(), n), "filling the workspace");
    }
    else check(cudaMemcpy(p, host + buffers[i].first, n, cudaMemcpyHostToDevice), "copying a buffer to the device");
  }
}

void DeviceArena::download_exact(std::byte* host, const Spans& buffers, const std::vector<bool>& scratch) {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!scratch[i]) check(cudaMemcpy(host + buffers[i].first, exact_[i].first, buffers[i].second, cudaMemcpyDeviceToHost),
          "copying a buffer from the device");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

std::string finish_call(bool& sticky) {
  sticky = false;
  const cudaError_t sync = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  if (sync != cudaSuccess) {
    // A failed synchronise (an illegal address, a trap) leaves the context unusable: the process ends.
    sticky = true;
    return "CUDA error " + describe(sync);
  }
  if (last != cudaSuccess) return "CUDA error " + describe(last) + " (a kernel launch failed)";
  return "";
}

}  // namespace hpcjudge::device

namespace hpcjudge {

namespace {

using protocol::CallArg;

// Both device kinds of the runner: the call counts the submission's device
// memory, synchronises and collects what solve() left behind.
class DeviceMemory : public RunnerMemory {
 public:
  explicit DeviceMemory(int device) : device_(device) {
    device::RunnerAllocation mine;
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess)
      throw std::runtime_error("cannot create a CUDA context on device " + std::to_string(device) + ": " +
                               device::describe(cudaGetLastError()));
  }
  // The runner's own device memory freed before the process ends (the Runner, which holds this, is destroyed as
  // main returns after Exit): compute-sanitizer's leak check (--sanitize) lists what is still allocated then, and
  // on the H200 it listed touch()'s 4 bytes ("cudaMalloc" in DeviceMemory::touch()), which made every
  // GPU file RE under --sanitize, the fast references and the pinned-word twin among them.
  ~DeviceMemory() override {
    device::RunnerAllocation mine;
    if (touched_) cudaFree(touched_);
    if (began_) cudaEventDestroy(began_);
    if (ended_) cudaEventDestroy(ended_);
    cudaGetLastError();  // a context already lost frees nothing: nothing to report
  }
  void begin_call(const CallStart& start) override {
    device::begin_call(start.device_memory_limit);
    timed_ = traced_ || start.device_time;
    if (timed_) {
      device::RunnerAllocation mine;
      if (!began_) cudaEventCreate(&began_), cudaEventCreate(&ended_);
      cudaEventRecord(began_, 0);  // the legacy stream: after it, whatever the call enqueues on any blocking stream
    }
  }
  CallEnd end_call() override {
    CallEnd e;
    e.error = device::finish_call(e.fatal);
    if (timed_ && e.error.empty()) {  // after the synchronise: the GPU takes it up at once
      const auto seen = std::chrono::steady_clock::now();
      cudaEventRecord(ended_, 0);
      float ms = 0;
      if (cudaEventSynchronize(ended_) == cudaSuccess && cudaEventElapsedTime(&ms, began_, ended_) == cudaSuccess) {
        if (traced_)
          e.gpu_began_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(seen.time_since_epoch()).count() -
                           static_cast<int64_t>(static_cast<double>(ms) * 1e6);
        e.device_seconds = static_cast<double>(ms) * 1e-3;
      }
      cudaGetLastError();
    }
    const device::MemoryAccount mem = device::end_call();
    e.device_peak_bytes = mem.peak;
    if (mem.refused > 0) e.refused(mem.refused, mem.refused_at, mem.limit);
    return e;
  }
  nlohmann::json sensors() override { return device::sensors(device_); }
  void touch() override {
    device::RunnerAllocation mine;
    if (!touched_) device::check(cudaMalloc(&touched_, 4), "cudaMalloc");
    device::launch_touch(static_cast<uint32_t*>(touched_));
    device::check(cudaGetLastError(), "the touch kernel's launch");
    device::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

 protected:
  int device_;
  // Events around the call in this context: under HPCJUDGE_TRACE, for the trace's gpu mark; for `judge bench`,
  // the call's device time (CallStart::device_time).
  const bool traced_ = tracing();
  bool timed_ = false;  // this call's events recorded
  cudaEvent_t began_ = nullptr, ended_ = nullptr;
  void* touched_ = nullptr;  // touch()'s 4 bytes
};

// The judge's device buffers, imported: the judge uploads, flushes and downloads.
class JudgeDevice : public DeviceMemory {
 public:
  using DeviceMemory::DeviceMemory;
  void map_arena(size_t) override {}
  void map_device(int fd, size_t bytes) override {
    device::RunnerAllocation mine;
    buffers_ = device::SharedBuffer();  // the previous mapping first: the judge has released its side
    buffers_ = device::SharedBuffer::import(device_, fd, bytes);
  }
  void* pointer(const CallArg& a, size_t) override {
    if (a.offset + a.bytes > buffers_.size()) throw std::runtime_error("a buffer outside the judge's device buffers");
    return buffers_.data() + a.offset;
  }

 private:
  device::SharedBuffer buffers_;
};

// The runner's own device arena, filled from the host arena (untimed requests).
class RunnerDevice : public DeviceMemory {
 public:
  RunnerDevice(int device, int arena_fd, bool exact)
      : DeviceMemory(device), host_(arena_fd), arena_(device), exact_(exact) {}
  void map_arena(size_t bytes) override { host_.map(bytes); }
  void upload(const std::vector<CallArg>& args, size_t bytes, bool keep_workspace) override {
    split(args);
    std::byte* host = host_base(bytes);
    if (exact_) arena_.upload_exact(host, spans_, scratch_flags_, !keep_workspace);
    else arena_.upload(host, bytes, scratch_, !keep_workspace);
    arena_.flush_l2();
    device::synchronize();
  }
  void download(const std::vector<CallArg>& args, size_t bytes) override {
    split(args);
    std::byte* host = host_base(bytes);
    if (exact_) arena_.download_exact(host, spans_, scratch_flags_);
    else arena_.download(host, bytes, scratch_);
  }
  void* pointer(const CallArg& a, size_t index) override {
    return exact_ ? arena_.exact(index) : static_cast<void*>(arena_.base() + a.offset);
  }

 private:
  std::byte* host_base(size_t bytes) {
    if (bytes > host_.size()) throw std::runtime_error("a copy past the mapped arena");
    return host_.base();
  }
  void split(const std::vector<CallArg>& args) {
    spans_.clear();
    scratch_.clear();
    scratch_flags_.clear();
    for (const CallArg& a : args) {
      if (!a.buffer) continue;
      spans_.push_back({a.offset, a.bytes});
      scratch_flags_.push_back(a.workspace);
      if (a.workspace) scratch_.push_back(spans_.back());
    }
  }
  ArenaMapping host_;
  device::DeviceArena arena_;
  bool exact_;
  device::DeviceArena::Spans spans_, scratch_;
  std::vector<bool> scratch_flags_;
};

}  // namespace

std::unique_ptr<RunnerMemory> judge_device(int device, int) { return std::make_unique<JudgeDevice>(device); }
std::unique_ptr<RunnerMemory> runner_device(int device, int arena_fd, bool exact_buffers) {
  return std::make_unique<RunnerDevice>(device, arena_fd, exact_buffers);
}

}  // namespace hpcjudge
