// Errors as the CUDA runtime keeps them (a launch error until cudaGetLastError
// takes it; a kernel's failure sticky, returned by every later call), streams
// and events (the work is done when it is issued), the device's description,
// atomics, the fault handler, and what the runner asks around each call.
#include <cxxabi.h>
#include <dlfcn.h>
#include <signal.h>
#include <ucontext.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <type_traits>

#include "counters.h"
#include "internal.h"
#include "runner.h"

namespace hpcjudge_emu {

namespace {

std::mutex error_mutex;
cudaError_t sticky = cudaSuccess, pending = cudaSuccess;
std::string sticky_detail, pending_detail, host_detail;

struct Stream {
  int unused = 0;
};
struct Event {
  std::chrono::steady_clock::time_point at{};
  bool recorded = false;
};

}  // namespace

void set_sticky(cudaError_t code, const std::string& detail) {
  std::lock_guard lock(error_mutex);
  if (sticky != cudaSuccess) return;
  sticky = code;
  sticky_detail = detail;
}

void set_launch_error(cudaError_t code, const std::string& detail) {
  std::lock_guard lock(error_mutex);
  pending = code;
  pending_detail = detail;
}

void note_host_error(const std::string& detail) {
  std::lock_guard lock(error_mutex);
  if (host_detail.empty()) host_detail = detail;
}

bool sticky_set() { return sticky != cudaSuccess; }

cudaError_t api_error() { return sticky; }

cudaError_t host_sync() {
  if (counters::g_on) counters::host_sync();
  return sticky;
}

cudaError_t last_error(bool clear) {
  std::lock_guard lock(error_mutex);
  if (sticky != cudaSuccess) return sticky;
  const cudaError_t e = pending;
  if (clear) {
    pending = cudaSuccess;
    pending_detail.clear();
  }
  return e;
}

const char* error_name(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}

const char* error_string(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unknown error";
}

void device_properties(cudaDeviceProp* p) {
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "CPU emulation of an NVIDIA H200 (sm_90)");
  p->totalGlobalMem = size_t{141} << 30;
  p->sharedMemPerBlock = 49152;
  p->sharedMemPerBlockOptin = 232448;
  p->sharedMemPerMultiprocessor = 233472;
  p->reservedSharedMemPerBlock = 1024;
  p->regsPerBlock = p->regsPerMultiprocessor = 65536;
  p->warpSize = 32;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->clockRate = 1980000;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = 132;
  p->concurrentKernels = 1;
  p->unifiedAddressing = 1;
  p->memoryClockRate = 3201000;
  p->memoryBusWidth = 6144;
  p->l2CacheSize = 52428800;
  p->persistingL2CacheMaxSize = 31457280;
  p->maxThreadsPerMultiProcessor = 2048;
  p->maxBlocksPerMultiProcessor = 32;
  p->managedMemory = 1;
  p->cooperativeLaunch = 1;
  p->asyncEngineCount = 3;
  p->accessPolicyMaxWindowSize = 134213632;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
}

int device_attribute(cudaDeviceAttr a) {
  cudaDeviceProp p;
  device_properties(&p);
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX: return p.maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY: return p.maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ: return p.maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX: return p.maxGridSize[0];
    case cudaDevAttrMaxGridDimY: return p.maxGridSize[1];
    case cudaDevAttrMaxGridDimZ: return p.maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return static_cast<int>(p.sharedMemPerBlock);
    case cudaDevAttrTotalConstantMemory: return static_cast<int>(p.totalConstMem);
    case cudaDevAttrWarpSize: return 32;
    case cudaDevAttrMaxRegistersPerBlock: return p.regsPerBlock;
    case cudaDevAttrClockRate: return p.clockRate;
    case cudaDevAttrMultiProcessorCount: return p.multiProcessorCount;
    case cudaDevAttrComputeCapabilityMajor: return p.major;
    case cudaDevAttrComputeCapabilityMinor: return p.minor;
    case cudaDevAttrL2CacheSize: return p.l2CacheSize;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return static_cast<int>(p.sharedMemPerMultiprocessor);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return p.regsPerMultiprocessor;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return static_cast<int>(p.sharedMemPerBlockOptin);
    case cudaDevAttrMaxBlocksPerMultiprocessor: return p.maxBlocksPerMultiProcessor;
  }
  return 0;
}

void device_reset() {
  free_all_allocations();
  std::lock_guard lock(error_mutex);
  sticky = pending = cudaSuccess;
  sticky_detail.clear();
  pending_detail.clear();
}

cudaStream_t stream_create() { return reinterpret_cast<cudaStream_t>(new Stream); }
cudaError_t stream_destroy(cudaStream_t s) {
  if (reinterpret_cast<uintptr_t>(s) > 2) delete reinterpret_cast<Stream*>(s);
  return api_error();
}
cudaEvent_t event_create() { return reinterpret_cast<cudaEvent_t>(new Event); }
cudaError_t event_destroy(cudaEvent_t e) {
  delete reinterpret_cast<Event*>(e);
  return api_error();
}
cudaError_t event_record(cudaEvent_t e) {
  if (!e) return cudaErrorInvalidResourceHandle;
  auto* ev = reinterpret_cast<Event*>(e);
  ev->at = std::chrono::steady_clock::now();
  ev->recorded = true;
  return api_error();
}
cudaError_t event_elapsed(float* ms, cudaEvent_t a, cudaEvent_t b) {
  auto* x = reinterpret_cast<Event*>(a);
  auto* y = reinterpret_cast<Event*>(b);
  if (!x || !y || !x->recorded || !y->recorded) return cudaErrorInvalidResourceHandle;
  *ms = std::chrono::duration<float, std::milli>(y->at - x->at).count();
  return api_error();
}

long long clock_ticks() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* kernel_name(const void* function) {
  Dl_info info{};
  if (!dladdr(function, &info) || !info.dli_sname) return "(a kernel launched with cudaLaunchKernelEx)";
  int status = 0;
  char* d = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
  std::string name = status == 0 && d ? d : info.dli_sname;
  std::free(d);
  if (const size_t paren = name.find('('); paren != std::string::npos) name.resize(paren);
  static std::vector<std::string> names;  // kept for the launch's lifetime and after
  names.push_back(name);
  return names.back().c_str();
}

// --- faults in device code: an illegal address, or a thread's stack overflowing -----------
namespace {
struct sigaction previous_segv, previous_bus;
char alt_stack[64 * 1024];

void on_fault(int sig, siginfo_t* info, void* ctx) {
  if (g_launch && g_thread)  // device code, on one of the grid's workers (a host thread's g_thread is null)
    fail(cudaErrorIllegalAddress,
         std::string(sig == SIGBUS ? "a fault (SIGBUS)" : "an access to unmapped memory") + " at address " +
             hex(reinterpret_cast<uintptr_t>(info->si_addr)) + " " + where_kernel() + ", by " +
             describe_thread(g_thread->linear) +
             " (a pointer far outside every buffer, or a thread's stack of 256 KiB overflowing)");
  // Host code in device memory (a library function: the instrumented accesses are reported before they fault):
  // recorded, device memory opened, and the access retried, as an instrumented one goes on.
  const bool write = (static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;  // x86-64: a write
  if (sig == SIGSEGV && open_after_host_fault(reinterpret_cast<uintptr_t>(info->si_addr), write)) return;
  // Not device memory: the crash it would have been.
  sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, nullptr);
}
}  // namespace

void install_fault_handler() {
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGBUS, &sa, &previous_bus);
}

namespace runner {

void begin_call(size_t limit) {
  g_launches_before_call = g_launches;
  Ledger& l = ledger();
  l.limit = limit;
  l.peak = l.held;
  l.refused = l.refused_at = 0;
}

CallEnd end_call() {
  ledger().limit = 0;
  report_host_fault();
  std::lock_guard lock(error_mutex);
  CallEnd e;
  if (sticky != cudaSuccess) {
    e.sticky = true;
    // The emulator's own checks (races, barriers, warp masks) are no CUDA error on a GPU: said as what they are.
    if (sticky == cudaErrorLaunchFailure)
      e.error = sticky_detail + " (the CPU emulator's check; the kernel was stopped there)";
    else
      e.error = std::string("CUDA error ") + error_name(sticky) + " (" + error_string(sticky) + "): " + sticky_detail;
  } else if (!host_detail.empty()) {
    e.error = host_detail;
    host_detail.clear();
  } else if (pending != cudaSuccess) {
    e.error = pending_detail + ": CUDA error " + error_name(pending) + " (" + error_string(pending) +
              ") (a kernel launch failed)";
    pending = cudaSuccess;
    pending_detail.clear();
  }
  return e;
}

}  // namespace runner

}  // namespace hpcjudge_emu

// --- atomics: a checked read-modify-write, made atomic by compare-and-swap (blocks run side by side) --------
namespace {
template <class T, class F>
T rmw(T* a, F f) {
  hpcjudge_emu::check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), hpcjudge_emu::Access::Atomic);
  if (hpcjudge_emu::counters::g_on)
    hpcjudge_emu::counters::atomic(reinterpret_cast<uintptr_t>(a), !std::is_integral_v<T>);
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static_assert(sizeof(Bits) == sizeof(T));
  auto* bits = reinterpret_cast<Bits*>(a);
  Bits seen = __atomic_load_n(bits, __ATOMIC_RELAXED);
  for (;;) {
    const T old = std::bit_cast<T>(seen);
    if (__atomic_compare_exchange_n(bits, &seen, std::bit_cast<Bits>(static_cast<T>(f(old))), false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}
}  // namespace

#define HPCJUDGE_DEF(name, T, expr) \
  T name(T* a, T v) { return rmw(a, [&]([[maybe_unused]] T o) { return static_cast<T>(expr); }); }
#define HPCJUDGE_DEF_INTS(name, expr)          \
  HPCJUDGE_DEF(name, int, expr)                \
  HPCJUDGE_DEF(name, unsigned int, expr)       \
  HPCJUDGE_DEF(name, unsigned long long, expr) \
  HPCJUDGE_DEF(name, long long, expr)
HPCJUDGE_DEF_INTS(atomicAdd, o + v)
HPCJUDGE_DEF(atomicAdd, float, o + v)
HPCJUDGE_DEF(atomicAdd, double, o + v)
HPCJUDGE_DEF_INTS(atomicSub, o - v)
HPCJUDGE_DEF(atomicSub, float, o - v)
HPCJUDGE_DEF_INTS(atomicMin, v < o ? v : o)
HPCJUDGE_DEF_INTS(atomicMax, v > o ? v : o)
HPCJUDGE_DEF(atomicMin, float, v < o ? v : o)
HPCJUDGE_DEF(atomicMax, float, v > o ? v : o)
HPCJUDGE_DEF_INTS(atomicExch, v)
HPCJUDGE_DEF(atomicExch, float, v)
HPCJUDGE_DEF_INTS(atomicAnd, o & v)
HPCJUDGE_DEF_INTS(atomicOr, o | v)
HPCJUDGE_DEF_INTS(atomicXor, o ^ v)
#undef HPCJUDGE_DEF_INTS
#undef HPCJUDGE_DEF
unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  return rmw(a, [&](unsigned o) { return o >= limit ? 0u : o + 1; });
}
unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  return rmw(a, [&](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
int atomicCAS(int* a, int c, int v) {
  return rmw(a, [&](int o) { return o == c ? v : o; });
}
unsigned int atomicCAS(unsigned int* a, unsigned int c, unsigned int v) {
  return rmw(a, [&](unsigned o) { return o == c ? v : o; });
}
unsigned long long atomicCAS(unsigned long long* a, unsigned long long c, unsigned long long v) {
  return rmw(a, [&](unsigned long long o) { return o == c ? v : o; });
}
unsigned short atomicCAS(unsigned short* a, unsigned short c, unsigned short v) {
  return rmw(a, [&](unsigned short o) { return o == c ? v : o; });
}
