#include "sdk/bytes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace hpcjudge {

namespace {

constexpr size_t kChunk = size_t{4} << 20;

size_t chunks(size_t n) { return (n + kChunk - 1) / kChunk; }

}  // namespace

void parallel_copy(std::byte* dst, const std::byte* src, size_t n) {
  if (n < kParallelBytes) {
    if (n) std::memcpy(dst, src, n);
    return;
  }
  const size_t k = chunks(n);
#pragma omp parallel for schedule(static)
  for (size_t c = 0; c < k; ++c) {
    const size_t from = c * kChunk;
    std::memcpy(dst + from, src + from, std::min(kChunk, n - from));
  }
}

bool parallel_equal(const std::byte* a, const std::byte* b, size_t n) {
  if (n < kParallelBytes) return n == 0 || std::memcmp(a, b, n) == 0;
  const size_t k = chunks(n);
  bool same = true;
#pragma omp parallel for schedule(static) reduction(&& : same)
  for (size_t c = 0; c < k; ++c) {
    const size_t from = c * kChunk;
    same = same && std::memcmp(a + from, b + from, std::min(kChunk, n - from)) == 0;
  }
  return same;
}

template <class T>
void parallel_fill(std::span<T> s, T value) {
  const size_t n = s.size();
  const size_t per = kChunk / sizeof(T);
  if (s.size_bytes() < kParallelBytes) {
    std::fill(s.begin(), s.end(), value);
    return;
  }
  const size_t k = (n + per - 1) / per;
#pragma omp parallel for schedule(static)
  for (size_t c = 0; c < k; ++c) std::fill(s.begin() + c * per, s.begin() + std::min(n, (c + 1) * per), value);
}

template void parallel_fill<float>(std::span<float>, float);
template void parallel_fill<int32_t>(std::span<int32_t>, int32_t);
template void parallel_fill<std::byte>(std::span<std::byte>, std::byte);

}  // namespace hpcjudge
