// Byte-wise work on the large buffers of a call (hundreds of MiB for a GPU problem's
// inputs), on every core: the judge copies, compares and fills them between calls,
// and one thread's memcpy is a fraction of what the host's memory can do.
#pragma once
#include <cstddef>
#include <span>

namespace hpcjudge {

// Below this a single thread's memcpy/memcmp/fill does it (threads cost more than they save).
inline constexpr size_t kParallelBytes = size_t{32} << 20;

void parallel_copy(std::byte* dst, const std::byte* src, size_t n);
// memcmp(a, b, n) == 0.
bool parallel_equal(const std::byte* a, const std::byte* b, size_t n);
// Every element of `s` set to `value` (T: float, int32_t, a byte).
template <class T>
void parallel_fill(std::span<T> s, T value);

}  // namespace hpcjudge
