// Spans of an arena that a copy goes around: the workspaces, which are never
// copied between host and device but filled with garbage that differs from
// one call to the next. Shared by the runner's own device arena
// (runner/device.cpp) and the judge's device buffers (judge/isolation/device_buffers.cpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace hpcjudge {

using Spans = std::vector<std::pair<size_t, size_t>>;  // (offset, bytes), sorted by offset

// Runs copy(from, to) over [0, bytes) minus the spans.
template <class Copy>
void around(size_t bytes, const Spans& skip, Copy copy) {
  size_t at = 0;
  for (const auto& [off, n] : skip) {
    if (off > at) copy(at, std::min(off, bytes));
    at = std::max(at, off + n);
  }
  if (bytes > at) copy(at, bytes);
}

// [0, bytes) minus `keep` (sorted, possibly touching or overlapping): the spans a copy of `keep` alone skips.
inline Spans complement(const Spans& keep, size_t bytes) {
  Spans skip;
  size_t at = 0;
  for (const auto& [off, n] : keep) {
    if (off > at) skip.push_back({at, std::min(off, bytes) - at});
    at = std::max(at, off + n);
    if (at >= bytes) return skip;
  }
  if (bytes > at) skip.push_back({at, bytes - at});
  return skip;
}

// A byte that differs from one call to the next, for scratch memory.
inline int garbage_byte() {
  static unsigned char round = 0x3C;
  round = static_cast<unsigned char>(round * 5 + 17);
  return round;
}

}  // namespace hpcjudge
