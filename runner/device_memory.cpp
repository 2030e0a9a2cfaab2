#include "runner/device_memory.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <mutex>
#include <unordered_map>

namespace hpcjudge::device {

namespace {

thread_local int runner_depth = 0;

struct Ledger {
  std::mutex mutex;
  std::unordered_map<void*, size_t> blocks;  // the submission's live allocations
  MemoryAccount account;
};

Ledger& ledger() {
  static Ledger l;
  return l;
}

// The CUDA runtime's own definition of `name`, next after the runner's.
template <class F>
F real(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  return reinterpret_cast<F>(f);
}

// Whether `bytes` more may be allocated now; records a refusal.
bool admit(size_t bytes) {
  if (runner_depth > 0) return true;
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  MemoryAccount& a = l.account;
  if (a.limit > 0 && a.held + bytes > a.limit) {
    if (a.refused == 0) {
      a.refused = bytes;
      a.refused_at = a.held;
    }
    return false;
  }
  return true;
}

void record(void* p, size_t bytes) {
  if (runner_depth > 0 || !p) return;
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  l.blocks[p] = bytes;
  l.account.held += bytes;
  l.account.peak = std::max(l.account.peak, l.account.held);
}

void forget(void* p) {
  if (runner_depth > 0 || !p) return;
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  auto it = l.blocks.find(p);
  if (it == l.blocks.end()) return;
  l.account.held -= it->second;
  l.blocks.erase(it);
}

// An allocation of `bytes` through `allocate` (the runtime's call), counted.
template <class Allocate>
cudaError_t counted(void** ptr, size_t bytes, Allocate allocate) {
  if (!admit(bytes)) {
    if (ptr) *ptr = nullptr;
    return cudaErrorMemoryAllocation;
  }
  const cudaError_t e = allocate();
  if (e == cudaSuccess && ptr) record(*ptr, bytes);
  return e;
}

}  // namespace

void begin_call(size_t limit) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  l.account.limit = limit;
  l.account.peak = l.account.held;
  l.account.refused = l.account.refused_at = 0;
}

MemoryAccount end_call() {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  MemoryAccount a = l.account;
  l.account.limit = 0;
  return a;
}

RunnerAllocation::RunnerAllocation() { ++runner_depth; }
RunnerAllocation::~RunnerAllocation() { --runner_depth; }

}  // namespace hpcjudge::device

// The interposed entry points. Each forwards to the runtime's definition.
using hpcjudge::device::counted;
using hpcjudge::device::forget;
using hpcjudge::device::real;

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
  static auto f = real<cudaError_t (*)(void**, size_t)>("cudaMalloc");
  return counted(p, bytes, [&] { return f(p, bytes); });
}

cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned flags) {
  static auto f = real<cudaError_t (*)(void**, size_t, unsigned)>("cudaMallocManaged");
  return counted(p, bytes, [&] { return f(p, bytes, flags); });
}

cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  static auto f = real<cudaError_t (*)(void**, size_t*, size_t, size_t)>("cudaMallocPitch");
  // The pitch is only known afterwards; the row is at most 512 bytes wider than asked.
  const size_t bound = (width + 512) * height;
  if (!hpcjudge::device::admit(bound)) return (*p = nullptr, cudaErrorMemoryAllocation);
  const cudaError_t e = f(p, pitch, width, height);
  if (e == cudaSuccess) hpcjudge::device::record(*p, *pitch * height);
  return e;
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* p, cudaExtent extent) {
  static auto f = real<cudaError_t (*)(cudaPitchedPtr*, cudaExtent)>("cudaMalloc3D");
  const size_t bound = (extent.width + 512) * extent.height * extent.depth;
  if (!hpcjudge::device::admit(bound)) return cudaErrorMemoryAllocation;
  const cudaError_t e = f(p, extent);
  if (e == cudaSuccess) hpcjudge::device::record(p->ptr, p->pitch * extent.height * extent.depth);
  return e;
}

cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t s) {
  static auto f = real<cudaError_t (*)(void**, size_t, cudaStream_t)>("cudaMallocAsync");
  return counted(p, bytes, [&] { return f(p, bytes, s); });
}

cudaError_t cudaMallocAsync_ptsz(void** p, size_t bytes, cudaStream_t s) {
  static auto f = real<cudaError_t (*)(void**, size_t, cudaStream_t)>("cudaMallocAsync_ptsz");
  return counted(p, bytes, [&] { return f(p, bytes, s); });
}

cudaError_t cudaMallocFromPoolAsync(void** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s) {
  static auto f = real<cudaError_t (*)(void**, size_t, cudaMemPool_t, cudaStream_t)>("cudaMallocFromPoolAsync");
  return counted(p, bytes, [&] { return f(p, bytes, pool, s); });
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void** p, size_t bytes, cudaMemPool_t pool, cudaStream_t s) {
  static auto f =
      real<cudaError_t (*)(void**, size_t, cudaMemPool_t, cudaStream_t)>("cudaMallocFromPoolAsync_ptsz");
  return counted(p, bytes, [&] { return f(p, bytes, pool, s); });
}

cudaError_t cudaFree(void* p) {
  static auto f = real<cudaError_t (*)(void*)>("cudaFree");
  const cudaError_t e = f(p);
  if (e == cudaSuccess) forget(p);
  return e;
}

cudaError_t cudaFreeAsync(void* p, cudaStream_t s) {
  static auto f = real<cudaError_t (*)(void*, cudaStream_t)>("cudaFreeAsync");
  const cudaError_t e = f(p, s);
  if (e == cudaSuccess) forget(p);
  return e;
}

cudaError_t cudaFreeAsync_ptsz(void* p, cudaStream_t s) {
  static auto f = real<cudaError_t (*)(void*, cudaStream_t)>("cudaFreeAsync_ptsz");
  const cudaError_t e = f(p, s);
  if (e == cudaSuccess) forget(p);
  return e;
}

}  // extern "C"
