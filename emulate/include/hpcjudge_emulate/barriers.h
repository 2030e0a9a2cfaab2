// CPU emulation, barriers: __syncthreads and its reductions, __syncwarp is in
// warp.h. Each is a scheduling point: the thread waits until every thread of
// its block has arrived at a barrier of the same line; a thread that exits or
// waits elsewhere meanwhile is an error (barrier divergence).
#pragma once
#include "core.h"

namespace hpcjudge_emu {
enum class BarrierKind { Plain, Count, And, Or };
int block_barrier(BarrierKind kind, int predicate, int line);
void fence();
}  // namespace hpcjudge_emu

inline void __syncthreads(int line = __builtin_LINE()) {
  hpcjudge_emu::block_barrier(hpcjudge_emu::BarrierKind::Plain, 0, line);
}
inline int __syncthreads_count(int p, int line = __builtin_LINE()) {
  return hpcjudge_emu::block_barrier(hpcjudge_emu::BarrierKind::Count, p, line);
}
inline int __syncthreads_and(int p, int line = __builtin_LINE()) {
  return hpcjudge_emu::block_barrier(hpcjudge_emu::BarrierKind::And, p, line);
}
inline int __syncthreads_or(int p, int line = __builtin_LINE()) {
  return hpcjudge_emu::block_barrier(hpcjudge_emu::BarrierKind::Or, p, line);
}
// Fences order memory: blocks run side by side on the emulator's workers, so each is a full fence.
inline void __threadfence() { hpcjudge_emu::fence(); }
inline void __threadfence_block() { hpcjudge_emu::fence(); }
inline void __threadfence_system() { hpcjudge_emu::fence(); }
