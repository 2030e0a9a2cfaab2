// Host arrays whose elements start uninitialised. std::vector<T>(n) value-initialises: it writes every
// element, on one thread, before the caller writes it again. A reference's answer of 10^8 doubles is 0.8 GB
// written twice that way, the first time on one core (on the 2-core VM about as long as the parallel reference
// itself). Where every element is written afterwards -- a reference's answer, a file read into it -- these
// vectors skip that first write: construction by size and resize() default-initialise (for arithmetic types,
// nothing). Everything else is std::vector's.
#pragma once
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace hpcjudge {

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
