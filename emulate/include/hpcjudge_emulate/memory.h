// CPU emulation, memory: device allocations (host memory inside the emulator's
// device range, counted against the judge's device-memory limit), copies and
// fills, __constant__ and __device__ symbols, and the block's shared memory.
#pragma once
#include <cstddef>
#include <type_traits>

#include "core.h"

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
struct CUmemPoolHandle_st;
typedef CUmemPoolHandle_st* cudaMemPool_t;
#define cudaHostAllocDefault 0
#define cudaHostAllocPortable 1
#define cudaHostAllocMapped 2
#define cudaHostRegisterDefault 0
#define cudaMemAttachGlobal 1

namespace hpcjudge_emu {
cudaError_t malloc_device(void** p, size_t bytes, bool managed);
cudaError_t free_device(void* p);
cudaError_t memcpy_checked(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const char* what);
cudaError_t memset_checked(void* dst, int value, size_t bytes, const char* what);
cudaError_t mem_get_info(size_t* free, size_t* total);
// The block's shared memory: a __shared__ declaration becomes a reference to
// storage the emulator keeps for it (bounds and races checked), at the same place
// in the shared-memory window of each thread that runs blocks (g_shared_base);
// extern __shared__ arrays all start at the launch's dynamic shared memory.
struct SharedSlot {
  uintptr_t place;  // in a window, plus one; 0 until the declaration first runs
};
uintptr_t shared_slot(SharedSlot& slot, const char* name, size_t bytes, size_t align, int line);
extern __thread uintptr_t g_shared_base __attribute__((tls_model("initial-exec")));  // 0 outside a grid
uintptr_t host_shared_base();
void* dynamic_shared(const char* name);
}  // namespace hpcjudge_emu

inline cudaError_t cudaMalloc(void** p, size_t bytes) { return hpcjudge_emu::malloc_device(p, bytes, false); }
template <class T>
inline cudaError_t cudaMalloc(T** p, size_t bytes) {
  return hpcjudge_emu::malloc_device(reinterpret_cast<void**>(p), bytes, false);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** p, size_t bytes, unsigned = cudaMemAttachGlobal) {
  return hpcjudge_emu::malloc_device(reinterpret_cast<void**>(p), bytes, true);
}
template <class T>
inline cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaStream_t) {
  return hpcjudge_emu::malloc_device(reinterpret_cast<void**>(p), bytes, false);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** p, size_t* pitch, size_t width, size_t height) {
  *pitch = (width + 511) / 512 * 512;
  return hpcjudge_emu::malloc_device(reinterpret_cast<void**>(p), *pitch * height, false);
}
inline cudaError_t cudaFree(void* p) { return hpcjudge_emu::free_device(p); }
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return hpcjudge_emu::free_device(p); }
// Page-locked host memory is host memory, which a kernel may reach as on the GPU.
template <class T>
inline cudaError_t cudaMallocHost(T** p, size_t bytes) {
  *p = static_cast<T*>(::operator new(bytes == 0 ? 1 : bytes));
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaHostAlloc(T** p, size_t bytes, unsigned) {
  return cudaMallocHost(p, bytes);
}
inline cudaError_t cudaFreeHost(void* p) {
  ::operator delete(p);
  return cudaSuccess;
}
inline cudaError_t cudaHostRegister(void*, size_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaHostUnregister(void*) { return cudaSuccess; }
inline cudaError_t cudaMemGetInfo(size_t* free, size_t* total) { return hpcjudge_emu::mem_get_info(free, total); }

inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return hpcjudge_emu::memcpy_checked(dst, src, bytes, kind, "cudaMemcpy");
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t = 0) {
  return hpcjudge_emu::memcpy_checked(dst, src, bytes, kind, "cudaMemcpyAsync");
}
inline cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind) {
  for (size_t r = 0; r < height; ++r) {
    const cudaError_t e = hpcjudge_emu::memcpy_checked(static_cast<char*>(dst) + r * dpitch,
                                                       static_cast<const char*>(src) + r * spitch, width, kind,
                                                       "cudaMemcpy2D");
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  return hpcjudge_emu::memset_checked(dst, value, bytes, "cudaMemset");
}
inline cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t = 0) {
  return hpcjudge_emu::memset_checked(dst, value, bytes, "cudaMemsetAsync");
}

// __constant__ and __device__ variables are ordinary variables of the submission.
template <class T>
inline cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  return hpcjudge_emu::memcpy_checked(reinterpret_cast<char*>(&symbol) + offset, src, bytes, kind,
                                      "cudaMemcpyToSymbol");
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  return hpcjudge_emu::memcpy_checked(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes, kind,
                                      "cudaMemcpyFromSymbol");
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
template <class P, class T>
inline cudaError_t cudaGetSymbolAddress(P** p, T& symbol) {
  *p = reinterpret_cast<P*>(&symbol);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t* n, const T&) {
  *n = sizeof(T);
  return cudaSuccess;
}

namespace hpcjudge_emu {
// `__shared__ T name[16][16];` becomes
// `static ::hpcjudge_emu::SharedSlot hpcjudge_shared_name; auto& name = shared<T[16][16]>(hpcjudge_shared_name, "name", line);`.
template <class T>
inline T& shared(SharedSlot& slot, const char* name, int line) {
  using Bare = std::remove_cv_t<std::remove_all_extents_t<T>>;
  constexpr size_t align = alignof(Bare) > 16 ? alignof(Bare) : 16;
  uintptr_t place = __atomic_load_n(&slot.place, __ATOMIC_ACQUIRE);
  place = place ? place - 1 : shared_slot(slot, name, sizeof(T), align, line);
  const uintptr_t base = g_shared_base;
  return *reinterpret_cast<T*>((base ? base : host_shared_base()) + place);
}
// `extern __shared__ T name[];` becomes `T* const name = dynamic<T>("name");`.
template <class T>
inline T* dynamic(const char* name) {
  return static_cast<T*>(dynamic_shared(name));
}
}  // namespace hpcjudge_emu

// Cache hints: plain loads and stores here.
template <class T>
inline T __ldg(const T* p) {
  return *p;
}
template <class T>
inline T __ldcs(const T* p) {
  return *p;
}
template <class T>
inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
inline T __ldca(const T* p) {
  return *p;
}
template <class T>
inline T __ldlu(const T* p) {
  return *p;
}
template <class T>
inline T __ldcv(const T* p) {
  return *p;
}
template <class T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
  *p = v;
}
