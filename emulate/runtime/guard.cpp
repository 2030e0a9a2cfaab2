// The device range closed to every system call that would change its mappings, but the emulator's own.
// Device memory is PROT_NONE to host code outside kernels and the emulator's copies (memory.cpp); a submission that
// called mprotect on it (or mapped over it, unmapped, moved or advised it) would undo that. A seccomp filter,
// installed once the range is reserved and stacked on the judge's (judge/isolation/syscall_filter.h), kills the
// process (SIGSYS) where mmap, mprotect, pkey_mprotect, munmap, mremap (from or to), madvise, remap_file_pages,
// mbind, set_mempolicy_home_node or mseal touches the range, unless the call is made by the instruction below,
// which the emulator's own changes go through: the filter tells it by the instruction pointer, which lies in a
// section that holds nothing else. userfaultfd (whose UFFDIO_MOVE takes pages out of any anonymous mapping) and
// shmat with SHM_REMAP (which maps over what it lands on, with a size no argument tells) are killed everywhere.
#include <sys/ioctl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "internal.h"

#ifndef SYS_set_mempolicy_home_node
#define SYS_set_mempolicy_home_node 450
#endif
#ifndef SYS_mseal
#define SYS_mseal 462
#endif

// hpcjudge_emu_raw_syscall(nr, a0..a5): the system call, its result as the kernel gives it (-errno on failure).
extern "C" long hpcjudge_emu_raw_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
asm(R"(
  .pushsection hpcjudge_emu_syscall,"ax",@progbits
  .globl hpcjudge_emu_raw_syscall
  .hidden hpcjudge_emu_raw_syscall
  .type hpcjudge_emu_raw_syscall,@function
hpcjudge_emu_raw_syscall:
  movq %rdi, %rax
  movq %rsi, %rdi
  movq %rdx, %rsi
  movq %rcx, %rdx
  movq %r8, %r10
  movq %r9, %r8
  movq 8(%rsp), %r9
  syscall
  ret
  .size hpcjudge_emu_raw_syscall, .-hpcjudge_emu_raw_syscall
  .popsection
)");
// The section's bounds, from the linker.
extern "C" const char __start_hpcjudge_emu_syscall[] __attribute__((visibility("hidden")));
extern "C" const char __stop_hpcjudge_emu_syscall[] __attribute__((visibility("hidden")));

namespace hpcjudge_emu {

namespace {

long raw(long nr, long a0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0, long a5 = 0) {
  const long r = hpcjudge_emu_raw_syscall(nr, a0, a1, a2, a3, a4, a5);
  if (r < 0 && r > -4096) {
    errno = static_cast<int>(-r);
    return -1;
  }
  return r;
}

constexpr uint32_t kKill = SECCOMP_RET_KILL_PROCESS, kAllow = SECCOMP_RET_ALLOW;
constexpr uint32_t kX32Bit = 0x40000000;  // __X32_SYSCALL_BIT
constexpr uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
constexpr uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
// An argument's low and high words (little-endian).
constexpr uint32_t arg_lo(int i) { return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * i); }
constexpr uint32_t arg_hi(int i) { return arg_lo(i) + 4; }

// A classic-BPF program with labels: every jump names a label, resolved when the program is done. Conditional
// jumps reach 255 instructions ahead, so each syscall's checks end in returns of their own.
class Program {
 public:
  int label() { return next_label_++; }
  void place(int l) { at_[l] = static_cast<int>(code_.size()); }
  void op(uint16_t code, uint32_t k = 0) { code_.push_back(BPF_STMT(code, k)); }
  void load(uint32_t offset) { op(BPF_LD | BPF_W | BPF_ABS, offset); }
  void ret(uint32_t action) { op(BPF_RET | BPF_K, action); }
  // if (A <cmp> k (or X)) goto yes else goto no; a label of -1 is the next instruction.
  void jump(uint16_t cmp, uint32_t k, int yes, int no) {
    refs_.push_back({static_cast<int>(code_.size()), yes, no});
    code_.push_back(BPF_JUMP(BPF_JMP | cmp, k, 0, 0));
  }
  void go(int l) {
    refs_.push_back({static_cast<int>(code_.size()), l, -1});
    code_.push_back(BPF_STMT(BPF_JMP | BPF_JA, 0));
  }
  // Goes to `yes` where the 64-bit value at (hi, lo) is >= k, else to `no` (-1: on past these instructions).
  void ge64(uint32_t hi, uint32_t lo, uint64_t k, int yes, int no) {
    const int low = label(), after = label();
    if (yes < 0) yes = after;
    if (no < 0) no = after;
    load(hi);
    jump(BPF_JGT | BPF_K, hi32(k), yes, -1);
    jump(BPF_JEQ | BPF_K, hi32(k), low, no);
    place(low);
    load(lo);
    jump(BPF_JGE | BPF_K, lo32(k), yes, no);
    place(after);
  }
  std::vector<sock_filter> finish() {
    for (const Ref& r : refs_) {
      sock_filter& f = code_[r.at];
      const auto offset = [&](int l) { return l < 0 ? 0 : at_[l] - r.at - 1; };
      if (BPF_OP(f.code) == BPF_JA) {
        f.k = static_cast<uint32_t>(offset(r.yes));
      } else {
        if (offset(r.yes) > 255 || offset(r.no) > 255) throw std::logic_error("the device range's filter: a jump too far");
        f.jt = static_cast<uint8_t>(offset(r.yes));
        f.jf = static_cast<uint8_t>(offset(r.no));
      }
    }
    return code_;
  }

 private:
  struct Ref {
    int at, yes, no;
  };
  std::vector<sock_filter> code_;
  std::vector<Ref> refs_;
  int next_label_ = 0;
  std::map<int, int> at_;
};

// Goes to `hit` where [args[a], args[a] + args[n]) meets [lo, hi) (an empty range at an address inside counts:
// mremap of a shared mapping with old_size 0 duplicates it), else on.
void overlap(Program& p, int a, int n, uint64_t lo, uint64_t hi, int hit) {
  const int below = p.label(), borrow = p.label(), no_borrow = p.label(), low = p.label(), miss = p.label();
  p.ge64(arg_hi(a), arg_lo(a), hi, miss, -1);    // at or past the end: no
  p.ge64(arg_hi(a), arg_lo(a), lo, hit, below);  // inside: yes
  p.place(below);                                  // below: yes where n > lo - a, kept in M[0] (low), M[1] (high)
  p.load(arg_lo(a));
  p.op(BPF_MISC | BPF_TAX);
  p.op(BPF_LD | BPF_IMM, lo32(lo));
  p.op(BPF_ALU | BPF_SUB | BPF_X);
  p.op(BPF_ST, 0);
  p.op(BPF_LD | BPF_IMM, hi32(lo));
  p.op(BPF_ST, 1);
  p.op(BPF_MISC | BPF_TXA);
  p.jump(BPF_JGT | BPF_K, lo32(lo), borrow, no_borrow);
  p.place(borrow);
  p.op(BPF_LD | BPF_MEM, 1);
  p.op(BPF_ALU | BPF_SUB | BPF_K, 1);
  p.op(BPF_ST, 1);
  p.place(no_borrow);
  p.load(arg_hi(a));
  p.op(BPF_MISC | BPF_TAX);
  p.op(BPF_LD | BPF_MEM, 1);
  p.op(BPF_ALU | BPF_SUB | BPF_X);
  p.op(BPF_MISC | BPF_TAX);  // X = high word of lo - a
  p.load(arg_hi(n));
  p.jump(BPF_JGT | BPF_X, 0, hit, -1);
  p.jump(BPF_JEQ | BPF_X, 0, low, miss);
  p.place(low);
  p.op(BPF_LDX | BPF_W | BPF_MEM, 0);
  p.load(arg_lo(n));
  p.jump(BPF_JGT | BPF_X, 0, hit, miss);
  p.place(miss);
}

struct Guarded {
  long nr;
  std::vector<std::pair<int, int>> ranges;  // (address argument, length argument)
};

std::vector<sock_filter> range_filter(uint64_t lo, uint64_t hi) {
  const auto own_lo = reinterpret_cast<uint64_t>(__start_hpcjudge_emu_syscall);
  const auto own_hi = reinterpret_cast<uint64_t>(__stop_hpcjudge_emu_syscall);
  if (hi32(own_lo) != hi32(own_hi)) throw std::runtime_error("the emulator's system-call section spans 4 GiB");
  const Guarded guarded[] = {{SYS_mmap, {{0, 1}}},           {SYS_mprotect, {{0, 1}}},   {SYS_pkey_mprotect, {{0, 1}}},
                             {SYS_munmap, {{0, 1}}},         {SYS_mremap, {{0, 1}, {4, 2}}},
                             {SYS_madvise, {{0, 1}}},        {SYS_remap_file_pages, {{0, 1}}},
                             {SYS_mbind, {{0, 1}}},          {SYS_set_mempolicy_home_node, {{0, 1}}},
                             {SYS_mseal, {{0, 1}}}};
  Program p;
  p.load(offsetof(seccomp_data, arch));
  const int native = p.label();
  p.jump(BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, native, -1);
  p.ret(kKill);
  p.place(native);
  p.load(offsetof(seccomp_data, nr));
  const int numbered = p.label();
  p.jump(BPF_JGE | BPF_K, kX32Bit, -1, numbered);
  p.ret(kKill);
  p.place(numbered);
  std::vector<int> blocks;
  for (const Guarded& g : guarded) {
    blocks.push_back(p.label());
    const int other = p.label();
    p.jump(BPF_JEQ | BPF_K, static_cast<uint32_t>(g.nr), -1, other);
    p.go(blocks.back());
    p.place(other);
  }
  const int kill = p.label();
  p.jump(BPF_JEQ | BPF_K, SYS_userfaultfd, kill, -1);
  const int not_ioctl = p.label(), not_shmat = p.label();
  p.jump(BPF_JEQ | BPF_K, SYS_ioctl, -1, not_ioctl);
  p.load(arg_lo(1));
  p.jump(BPF_JEQ | BPF_K, USERFAULTFD_IOC_NEW, kill, -1);
  p.ret(kAllow);
  p.place(not_ioctl);
  p.jump(BPF_JEQ | BPF_K, SYS_shmat, -1, not_shmat);
  p.load(arg_lo(2));
  p.jump(BPF_JSET | BPF_K, SHM_REMAP, kill, -1);
  p.place(not_shmat);
  p.ret(kAllow);
  p.place(kill);
  p.ret(kKill);
  for (size_t i = 0; i < std::size(guarded); ++i) {
    const int own = p.label(), not_own = p.label(), hit = p.label();
    p.place(blocks[i]);
    p.load(offsetof(seccomp_data, instruction_pointer) + 4);
    p.jump(BPF_JEQ | BPF_K, hi32(own_lo), -1, not_own);
    p.load(offsetof(seccomp_data, instruction_pointer));
    p.jump(BPF_JGE | BPF_K, lo32(own_lo), -1, not_own);
    p.jump(BPF_JGE | BPF_K, lo32(own_hi), not_own, own);
    p.place(not_own);
    for (const auto& [a, n] : guarded[i].ranges) overlap(p, a, n, lo, hi, hit);
    p.place(own);
    p.ret(kAllow);
    p.place(hit);
    p.ret(kKill);
  }
  return p.finish();
}

}  // namespace

void* device_mmap(void* at, size_t bytes, int prot, int flags, int fd, long offset) {
  const long r = raw(SYS_mmap, reinterpret_cast<long>(at), static_cast<long>(bytes), prot, flags, fd, offset);
  return r == -1 ? MAP_FAILED : reinterpret_cast<void*>(r);
}
int device_mprotect(void* at, size_t bytes, int prot) {
  return static_cast<int>(raw(SYS_mprotect, reinterpret_cast<long>(at), static_cast<long>(bytes), prot));
}
int device_madvise(void* at, size_t bytes, int advice) {
  return static_cast<int>(raw(SYS_madvise, reinterpret_cast<long>(at), static_cast<long>(bytes), advice));
}

void guard_device_range(uintptr_t lo, size_t bytes) {
  std::vector<sock_filter> code = range_filter(lo, lo + bytes);
  sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
  // Every thread of the process, those that exist already included (TSYNC); no_new_privs lets a process without
  // CAP_SYS_ADMIN install a filter (the judge's own filter set it already).
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    throw std::runtime_error("cannot close the emulated device's range to system calls (seccomp)");
}

}  // namespace hpcjudge_emu
