// What a call's kernels do to the memory system, counted as a GPU would see it (only in a call the runner asks to
// count: runner::count_accesses): the lanes of a warp that run the same instruction instance (the same code
// address, the same execution of it by each lane since the last block barrier) make one warp-level request;
// a global request is its distinct 32-byte sectors, a shared one its bank-conflict degree (the most distinct
// 4-byte words in one of the 32 banks). Every hook below is behind `g_on`, so a call that does not count pays one
// test per access.
#pragma once
#include <cstddef>
#include <cstdint>

#include "internal.h"

namespace hpcjudge_emu::counters {

extern bool g_on;  // this call counts

// An access of the running code: counted when a kernel's thread makes it to global or shared memory. `pc`: the
// address of the instruction after the instrumentation's call (what names the instruction and its line).
void access(uintptr_t addr, size_t size, Access kind, uintptr_t pc);
// An atomic read-modify-write (atomicAdd and kin) of the running code; `floating`: on a floating-point value.
void atomic(uintptr_t addr, bool floating);
void launch_begin(const Launch& l);
void launch_end();
void block_begin();
void block_end();
void barrier_completed();                 // every thread of the running block passed a block barrier
void warp_collective(unsigned lanes);     // a warp collective completed with these lanes
void host_sync();                         // the host waited for the device

}  // namespace hpcjudge_emu::counters
