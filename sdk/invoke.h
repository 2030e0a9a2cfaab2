// Calling a loaded solve() of any signature from a list of untyped arguments:
// pointers for buffers, integers for scalars, converted to the parameter types
// of Fn (the declaration in the problem's header).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace hpcjudge {

union ArgValue {
  void* ptr;
  int64_t integer;
};

template <class T>
T arg_cast(ArgValue v) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<T>(v.ptr);
  else
    return static_cast<T>(v.integer);
}

template <class R, class... A, size_t... I>
int64_t call_with(R (*f)(A...), std::span<const ArgValue> a, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    f(arg_cast<A>(a[I])...);
    return 0;
  } else {
    return static_cast<int64_t>(f(arg_cast<A>(a[I])...));
  }
}

template <class R, class... A>
int64_t call_symbol(R (*f)(A...), std::span<const ArgValue> a) {
  if (a.size() != sizeof...(A)) throw std::invalid_argument("argument count does not match the signature");
  return call_with(f, a, std::index_sequence_for<A...>{});
}

template <class Fn>
int64_t invoke_symbol(void* symbol, std::span<const ArgValue> a) {
  return call_symbol(reinterpret_cast<Fn*>(symbol), a);
}

}  // namespace hpcjudge
