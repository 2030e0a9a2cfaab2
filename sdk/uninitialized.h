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
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace hpcjudge {

namespace uninit {

inline constexpr size_t kHugeBytes = size_t{32} << 20;
inline constexpr size_t kHugePage = size_t{2} << 20;

inline size_t mapped_bytes(size_t bytes) { return (bytes + 4095) & ~size_t{4095}; }

// Faults in [p, p + bytes) from the kernel, in one system call (MADV_POPULATE_WRITE, Linux 5.14), as a write
// would; false where the kernel refuses (older, or short of memory: the writes fault the pages in then). On the
// 2-core VM a fault from a write took 17 us: a first write of 256 MiB 1.1 s, against 0.45 s populated first.
inline bool populate(void* p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
  constexpr int kPopulateWrite = 23;  // where the headers are older than the kernel
#endif
  return madvise(p, bytes, kPopulateWrite) == 0;
}

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

// The length a large array is mapped with: rounded up to a sixteenth of its power of two (at least 2 MiB), so
// that arrays of nearly the same size (rle's runs, a few more or fewer in each input set) share one length.
inline size_t pooled_bytes(size_t bytes) {
  size_t step = kHugePage;
  while (step < (size_t{1} << 62) && step * 32 <= bytes) step *= 2;  // step: between bytes / 32 and bytes / 16
  return (bytes + step - 1) / step * step;
}

// Large arrays given back are kept, mapped and faulted in, for the next one of the same mapped length: each
// input set's answer is as large as the one before, and a fresh mapping costs its page faults and zeroing
// (and, with huge pages, at times the kernel's compaction: rle's answers of 0.9 GB took 0.5-1.2 s to encode on
// the 2-core VM, 0.2 s in a kept mapping). At most kKept of them, together at most an eighth of the memory;
// the oldest goes first. One pool per process, guarded by its mutex: an allocator's cache, which never
// changes what an array holds (an UninitVector's elements are unspecified until written). The mappings are
// MADV_DONTFORK, so that the pages kept do not make each fork (a runner started) copy their page tables: a
// forked child reading a large UninitVector of its parent's faults.
class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }
  void* take(size_t len) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = count_; i-- > 0;)
        if (kept_[i].len == len) {
          void* p = kept_[i].p;
          remove(i);
          return p;
        }
    }
    void* p = map_huge(len);
    madvise(p, len, MADV_DONTFORK);  // a child the judge forks execs at once: it never needs these pages
    return p;
  }
  void give(void* p, size_t len) noexcept {
    Entry out[kKept + 1];
    size_t dropped = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (len > limit_) {
        out[dropped++] = {p, len};
      } else {
        while (count_ > 0 && (count_ == kKept || kept_bytes_ + len > limit_)) {  // the oldest out
          out[dropped++] = kept_[0];
          remove(0);
        }
        kept_[count_++] = {p, len};
        kept_bytes_ += len;
      }
    }
    for (size_t i = 0; i < dropped; ++i) munmap(out[i].p, out[i].len);
  }

 private:
  // Entry i out, the later ones moved up (the oldest stays first); the caller holds the mutex.
  void remove(size_t i) noexcept {
    kept_bytes_ -= kept_[i].len;
    for (size_t j = i; j + 1 < count_; ++j) kept_[j] = kept_[j + 1];
    --count_;
  }
  static constexpr size_t kKept = 8;
  struct Entry {
    void* p = nullptr;
    size_t len = 0;
  };
  Pool() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    limit_ = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) / 8 : size_t{1} << 30;
  }
  std::mutex mutex_;
  Entry kept_[kKept];
  size_t count_ = 0, kept_bytes_ = 0, limit_ = 0;
};

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
    return static_cast<T*>(uninit::Pool::get().take(uninit::pooled_bytes(n * sizeof(T))));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < uninit::kHugeBytes) std::allocator<T>::deallocate(p, n);
    else uninit::Pool::get().give(p, uninit::pooled_bytes(n * sizeof(T)));
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
