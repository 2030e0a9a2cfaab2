// CPU emulation, warp collectives. Warps are 32 consecutive threads of the
// block (by linear thread index). A collective waits until every lane named
// in its mask has arrived at a collective of the same kind with the same mask;
// a named lane that exits, waits at a block barrier or calls another
// collective is an error (the mask does not match the threads that arrive).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core.h"

namespace hpcjudge_emu {
enum class WarpOp : int {
  Sync, ShflIdx, ShflUp, ShflDown, ShflXor, Ballot, Any, All, ReduceAdd, ReduceMin, ReduceMax,
  ReduceAnd, ReduceOr, ReduceXor, MatchAny, MatchAll
};
// The lane's 8-byte value in, its result out; `arg` is the lane, delta or mask of a shuffle.
uint64_t warp_collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, bool is_signed, int line);
unsigned active_mask();
unsigned lane_id();

template <class T>
inline T shuffle(WarpOp op, unsigned mask, T v, int arg, int width, int line) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a shuffled value has at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = warp_collective(op, mask, bits, arg, width, false, line);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
template <class T>
inline T reduce(WarpOp op, unsigned mask, T v, int line) {
  static_assert(std::is_integral_v<T>, "__reduce_*_sync takes int or unsigned");
  const uint64_t bits = std::is_signed_v<T> ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
  return static_cast<T>(warp_collective(op, mask, bits, 0, 32, std::is_signed_v<T>, line));
}
}  // namespace hpcjudge_emu

inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) {
  hpcjudge_emu::warp_collective(hpcjudge_emu::WarpOp::Sync, mask, 0, 0, 32, false, line);
}
template <class T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = warpSize, int line = __builtin_LINE()) {
  return hpcjudge_emu::shuffle(hpcjudge_emu::WarpOp::ShflIdx, mask, v, src, width, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = warpSize, int line = __builtin_LINE()) {
  return hpcjudge_emu::shuffle(hpcjudge_emu::WarpOp::ShflUp, mask, v, static_cast<int>(delta), width, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = warpSize, int line = __builtin_LINE()) {
  return hpcjudge_emu::shuffle(hpcjudge_emu::WarpOp::ShflDown, mask, v, static_cast<int>(delta), width, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = warpSize, int line = __builtin_LINE()) {
  return hpcjudge_emu::shuffle(hpcjudge_emu::WarpOp::ShflXor, mask, v, lane_mask, width, line);
}
inline unsigned __ballot_sync(unsigned mask, int p, int line = __builtin_LINE()) {
  return static_cast<unsigned>(hpcjudge_emu::warp_collective(hpcjudge_emu::WarpOp::Ballot, mask, p != 0, 0, 32, false, line));
}
inline int __any_sync(unsigned mask, int p, int line = __builtin_LINE()) {
  return static_cast<int>(hpcjudge_emu::warp_collective(hpcjudge_emu::WarpOp::Any, mask, p != 0, 0, 32, false, line));
}
inline int __all_sync(unsigned mask, int p, int line = __builtin_LINE()) {
  return static_cast<int>(hpcjudge_emu::warp_collective(hpcjudge_emu::WarpOp::All, mask, p != 0, 0, 32, false, line));
}
inline unsigned __activemask() { return hpcjudge_emu::active_mask(); }
template <class T>
inline T __reduce_add_sync(unsigned mask, T v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceAdd, mask, v, line);
}
template <class T>
inline T __reduce_min_sync(unsigned mask, T v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceMin, mask, v, line);
}
template <class T>
inline T __reduce_max_sync(unsigned mask, T v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceMax, mask, v, line);
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceAnd, mask, v, line);
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceOr, mask, v, line);
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v, int line = __builtin_LINE()) {
  return hpcjudge_emu::reduce(hpcjudge_emu::WarpOp::ReduceXor, mask, v, line);
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T v, int line = __builtin_LINE()) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  return static_cast<unsigned>(hpcjudge_emu::warp_collective(hpcjudge_emu::WarpOp::MatchAny, mask, bits, 0, 32, false, line));
}
