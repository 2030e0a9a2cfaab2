// CPU emulation, launches. The judge rewrites `kernel<<<grid, block, shared,
// stream>>>(args...)` into
//   ::hpcjudge_emu::kernel_launch("kernel", ::hpcjudge_emu::LaunchConfig(grid, block, shared, stream),
//                                 [&](auto&&... a) { kernel(a...); })(args...)
// so the arguments are evaluated once, on the host, and every emulated thread
// calls the kernel with its own copy of them. The launch runs at once (streams
// are in order): the blocks taken in linear order by the emulator's workers, each block's threads as fibers.
#pragma once
#include <tuple>
#include <type_traits>
#include <utility>

#include "core.h"

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0 };
#define cudaSharedmemCarveoutMaxShared 100
#define cudaSharedmemCarveoutMaxL1 0

namespace hpcjudge_emu {

struct LaunchConfig {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
  LaunchConfig(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = nullptr) : grid(g), block(b), shared(s), stream(st) {}
};

using Body = void (*)(void* closure);
// Runs the grid; the launch's error (a configuration the GPU would refuse) is
// left for cudaGetLastError, a kernel's failure is sticky.
void launch(const char* name, const LaunchConfig& cfg, Body body, void* closure);
void set_max_dynamic_shared(size_t bytes);

template <class F>
struct KernelLaunch {
  const char* name;
  LaunchConfig cfg;
  F body;
  template <class... A>
  void operator()(A&&... a) {
    std::tuple<std::decay_t<A>...> args(std::forward<A>(a)...);
    auto run = [&] { std::apply(body, args); };
    launch(name, cfg, [](void* c) { (*static_cast<decltype(run)*>(c))(); }, &run);
  }
};
template <class F>
KernelLaunch<F> kernel_launch(const char* name, const LaunchConfig& cfg, F body) {
  return {name, cfg, body};
}
const char* kernel_name(const void* function);  // from the symbol table, for cudaLaunchKernelEx

}  // namespace hpcjudge_emu

template <class F>
inline cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 232448) return cudaErrorInvalidValue;
    hpcjudge_emu::set_max_dynamic_shared(static_cast<size_t>(value));
  }
  return hpcjudge_emu::api_error();
}
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) {
  return hpcjudge_emu::api_error();
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return hpcjudge_emu::api_error(); }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return hpcjudge_emu::api_error(); }

// Blocks of `threads` per SM as an H100/H200 allows them by threads and shared memory (registers are not known here).
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, F*, int threads, size_t shared) {
  if (threads <= 0 || threads > 1024) return cudaErrorInvalidValue;
  int by_threads = 2048 / threads, by_shared = shared ? static_cast<int>(233472 / (shared + 1024)) : 32;
  *n = by_threads < by_shared ? by_threads : by_shared;
  if (*n > 32) *n = 32;
  return cudaSuccess;
}

// cudaLaunchKernelEx: the attributes (programmatic dependent launch, clusters of one) change nothing in order.
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
};
union cudaLaunchAttributeValue {
  char pad[64];
  int programmaticStreamSerializationAllowed;
  int cooperative;
  int priority;
  struct {
    unsigned int x, y, z;
  } clusterDim;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};
template <class... P, class... A>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* c, void (*kernel)(P...), A&&... args) {
  hpcjudge_emu::kernel_launch(hpcjudge_emu::kernel_name(reinterpret_cast<const void*>(kernel)),
                              hpcjudge_emu::LaunchConfig(c->gridDim, c->blockDim, c->dynamicSmemBytes, c->stream),
                              [kernel](auto&&... a) { kernel(a...); })(std::forward<A>(args)...);
  return hpcjudge_emu::last_error(false);
}
// The previous grid is complete before a launch starts here.
inline void cudaGridDependencySynchronize() {}
inline void cudaTriggerProgrammaticLaunchCompletion() {}
