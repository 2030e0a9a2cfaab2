// CPU emulation, core: the qualifiers, the built-in variables, errors, the
// device's description, streams and events (executed in order, at once).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

// --- qualifiers -----------------------------------------------------------------
// Kernels and device functions are ordinary functions here. __shared__ never
// reaches the compiler: the judge rewrites each __shared__ declaration into a
// reference to the block's emulated shared memory (emulate/rewrite/rewrite.cpp).
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION 13000

// --- built-in vector types for indices --------------------------------------------
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// The running thread's indices, set by the emulator before each thread runs (each worker thread's own: blocks
// run side by side, emulate/runtime/workers.cpp).
extern __thread uint3 threadIdx __attribute__((tls_model("initial-exec")));
extern __thread uint3 blockIdx __attribute__((tls_model("initial-exec")));
extern dim3 blockDim;
extern dim3 gridDim;
constexpr int warpSize = 32;

// --- errors -------------------------------------------------------------------------
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;

namespace hpcjudge_emu {
cudaError_t last_error(bool clear);
const char* error_name(cudaError_t e);
const char* error_string(cudaError_t e);
}  // namespace hpcjudge_emu

inline cudaError_t cudaGetLastError() { return hpcjudge_emu::last_error(true); }
inline cudaError_t cudaPeekAtLastError() { return hpcjudge_emu::last_error(false); }
inline const char* cudaGetErrorName(cudaError_t e) { return hpcjudge_emu::error_name(e); }
inline const char* cudaGetErrorString(cudaError_t e) { return hpcjudge_emu::error_string(e); }

// --- the device ---------------------------------------------------------------------
// What cudaGetDeviceProperties reports: an H100/H200-class device (sm_90).
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitPersistingL2CacheSize = 6,
};

namespace hpcjudge_emu {
void device_properties(cudaDeviceProp* p);
int device_attribute(cudaDeviceAttr a);
cudaError_t api_error();  // the sticky error, if a kernel failed; else cudaSuccess
cudaError_t host_sync();  // the host waits for the device (counted: emulate/runtime/counters.h): api_error()
void device_reset();
}  // namespace hpcjudge_emu

inline cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return hpcjudge_emu::api_error();
}
inline cudaError_t cudaSetDevice(int d) { return d == 0 ? hpcjudge_emu::api_error() : cudaErrorInvalidValue; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (d != 0) return cudaErrorInvalidValue;
  hpcjudge_emu::device_properties(p);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int d) {
  if (d != 0) return cudaErrorInvalidValue;
  *v = hpcjudge_emu::device_attribute(a);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() { return hpcjudge_emu::host_sync(); }
inline cudaError_t cudaThreadSynchronize() { return hpcjudge_emu::host_sync(); }
inline cudaError_t cudaDeviceReset() {
  hpcjudge_emu::device_reset();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return hpcjudge_emu::api_error(); }
inline cudaError_t cudaDeviceGetLimit(size_t* v, cudaLimit l) {
  *v = l == cudaLimitStackSize ? 1024 : 0;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

// --- streams and events: executed in order, at once -----------------------------------
struct CUstream_st;
struct CUevent_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2

namespace hpcjudge_emu {
cudaStream_t stream_create();
cudaError_t stream_destroy(cudaStream_t);
cudaEvent_t event_create();
cudaError_t event_destroy(cudaEvent_t);
cudaError_t event_record(cudaEvent_t);
cudaError_t event_elapsed(float* ms, cudaEvent_t a, cudaEvent_t b);
}  // namespace hpcjudge_emu

inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = hpcjudge_emu::stream_create();
  return hpcjudge_emu::api_error();
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { return cudaStreamCreate(s); }
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned, int) { return cudaStreamCreate(s); }
inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return hpcjudge_emu::stream_destroy(s); }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return hpcjudge_emu::host_sync(); }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return hpcjudge_emu::api_error(); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0) { return hpcjudge_emu::api_error(); }
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = hpcjudge_emu::event_create();
  return hpcjudge_emu::api_error();
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return hpcjudge_emu::event_destroy(e); }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) { return hpcjudge_emu::event_record(e); }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return hpcjudge_emu::host_sync(); }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return hpcjudge_emu::api_error(); }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  return hpcjudge_emu::event_elapsed(ms, a, b);
}
