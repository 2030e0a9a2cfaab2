// Host arrays whose elements start uninitialised. std::vector<T>(n) value-initialises: it writes every
// element, on one thread, before the caller writes it again. A reference's answer of 10^8 doubles is 0.8 GB
// written twice that way, the first time on one core (on the 2-core VM about as long as the parallel reference
// itself). Where every element is written afterwards -- a reference's answer, a file read into it -- these
// vectors skip that first write: construction by size and resize() default-initialise (for arithmetic types,
// nothing). Everything else is std::vector's.
//
// A large array (kHugeBytes or more: a reference's answer for a performance case, made afresh for every input
// set) is mapped on its own and asked for transparent huge pages (MADV_HUGEPAGE; where the kernel gives none, it
// is an ordinary mapping): its first write then faults once per 2 MiB instead of once per 4 KiB. On the 2-core
// VM the first write of 800 MB on every core took 34-600 ms so, against 1.3-1.6 s.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace hpcjudge {

namespace uninit {

inline constexpr size_t kHugeBytes = size_t{32} << 20;
inline constexpr size_t kHugePage = size_t{2} << 20;

inline size_t mapped_bytes(size_t bytes) { return (bytes + 4095) & ~size_t{4095}; }

// `bytes` at a 2 MiB boundary, in a mapping of their own (the unaligned head and tail unmapped at once), asked
// for transparent huge pages; munmap(p, mapped_bytes(bytes)) gives it back. nullptr where mmap fails.
inline void* try_map_huge(size_t bytes, int extra_flags = 0) {
  const size_t len = mapped_bytes(bytes), span = len + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto at = reinterpret_cast<uintptr_t>(raw), aligned = (at + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > at) munmap(raw, aligned - at);
  if (at + span > aligned + len) munmap(reinterpret_cast<void*>(aligned + len), at + span - (aligned + len));
  madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

inline void* map_huge(size_t bytes) {
  void* p = try_map_huge(bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace uninit

template <class T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    if (n * sizeof(T) < uninit::kHugeBytes) return std::allocator<T>::allocate(n);
    return static_cast<T*>(uninit::map_huge(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < uninit::kHugeBytes) std::allocator<T>::deallocate(p, n);
    else munmap(p, uninit::mapped_bytes(n * sizeof(T)));
  }
  // With no arguments, default-initialised (vector(n), resize(n)); otherwise as std::allocator constructs.
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;
    else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace hpcjudge
