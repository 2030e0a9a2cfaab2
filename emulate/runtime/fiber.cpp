// The emulated threads' stacks and the switch between them: callee-saved
// registers pushed on the running stack, the stack pointer swapped. A thread
// that ends without ever waiting gives its stack back at once, so a grid
// without barriers runs on one stack; a block whose threads wait holds one
// per thread. Stacks are kept for the next launch, each worker's in its own pool.
#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

#include "internal.h"

#if !defined(__x86_64__)
#error "the CUDA emulator's context switch is written for x86-64"
#endif

// hpcjudge_emu_switch(void** save /*rdi*/, void* to /*rsi*/)
asm(R"(
.text
.globl hpcjudge_emu_switch
.type hpcjudge_emu_switch,@function
hpcjudge_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.size hpcjudge_emu_switch,.-hpcjudge_emu_switch
.section .note.GNU-stack,"",@progbits
.text
)");

namespace hpcjudge_emu {

namespace {
constexpr size_t kStackBytes = size_t{256} << 10;  // a thread's stack: its locals and calls
constexpr size_t kGuard = 4096;
std::atomic<unsigned> made{0};
}  // namespace

Stack* take_stack() {
  std::vector<Stack*>& free_stacks = g_worker->free_stacks;
  if (!free_stacks.empty()) {
    Stack* s = free_stacks.back();
    free_stacks.pop_back();
    return s;
  }
  void* p = mmap(nullptr, kStackBytes + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  mprotect(p, kGuard, PROT_NONE);  // an overflow faults (reported as the kernel's illegal address)
  // Each stack's top at another offset in its page: a block's 1024 fibers resumed in turn would
  // otherwise all touch the same cache sets.
  const size_t color = (made.fetch_add(1, std::memory_order_relaxed) * 7 % 64) * 64;
  return new Stack{static_cast<char*>(p) + kGuard, kStackBytes - color};
}

void give_stack(Stack* s) { g_worker->free_stacks.push_back(s); }

void* new_context(Stack* s, void (*entry)()) {
  // The frame hpcjudge_emu_switch pops: six registers, the return address. (The floating-point
  // control words are not switched: every emulated thread runs with the same rounding.)
  auto* top = reinterpret_cast<uint64_t*>((reinterpret_cast<uintptr_t>(s->base + s->size)) & ~uintptr_t{15});
  top -= 2;                                           // 16-byte aligned: entry starts as if called
  top[0] = reinterpret_cast<uint64_t>(entry);         // ret
  top[1] = 0;
  uint64_t* sp = top - 6;                             // r15 r14 r13 r12 rbx rbp
  for (int i = 0; i < 6; ++i) sp[i] = 0;
  return sp;
}

}  // namespace hpcjudge_emu
