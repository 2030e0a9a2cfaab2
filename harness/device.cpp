#include "device.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>

#include "device_memory.h"

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

namespace {
// A byte that differs from one call to the next, for scratch memory.
int garbage_byte() {
  static unsigned char round = 0x3C;
  round = static_cast<unsigned char>(round * 5 + 17);
  return round;
}

// Runs `copy(from, to)` over [0, bytes) minus the scratch spans (sorted by offset).
template <class Copy>
void around(size_t bytes, const DeviceArena::Spans& scratch, Copy copy) {
  size_t at = 0;
  for (const auto& [off, n] : scratch) {
    if (off > at) copy(at, off);
    at = std::max(at, off + n);
  }
  if (bytes > at) copy(at, bytes);
}
}  // namespace

void DeviceArena::upload(std::byte* host, size_t bytes, const Spans& scratch) {
  RunnerAllocation mine;
  if (bytes > size_) {
    if (base_) check(cudaFree(base_), "cudaFree");
    base_ = nullptr;
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "allocating the device buffers");
    base_ = static_cast<std::byte*>(p);
    size_ = bytes;
  }
  pin(host, scratch.empty() ? bytes : scratch.front().first);  // workspaces come last: never pinned
  around(bytes, scratch, [&](size_t from, size_t to) {
    check(cudaMemcpy(base_ + from, host + from, to - from, cudaMemcpyHostToDevice), "copying the inputs to the device");
  });
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

void DeviceArena::upload_exact(std::byte* host, const Spans& buffers, const std::vector<bool>& scratch) {
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
    if (scratch[i]) check(cudaMemset(p, garbage_byte(), n), "filling the workspace");
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
