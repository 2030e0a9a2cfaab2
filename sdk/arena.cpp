#include "sdk/arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "sdk/bytes.h"
#include "sdk/uninitialized.h"
#include "sdk/text.h"

namespace hpcjudge {

namespace {
constexpr size_t kPage = 4096;
size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }
}  // namespace

ArenaLayout ArenaLayout::plan(const std::vector<BufferSpec>& buffers) {
  ArenaLayout l;
  l.offset.resize(buffers.size());
  l.bytes.resize(buffers.size());
  for (int pass = 0; pass < 2; ++pass)  // workspaces in the second pass
    for (size_t i = 0; i < buffers.size(); ++i)
      if ((buffers[i].role == Role::Workspace) == (pass == 1)) l.order.push_back(static_cast<int>(i));
  for (const BufferSpec& b : buffers) l.guard.push_back(guard_word(b));
  size_t at = kGuardBytes;
  l.copied = 0;
  for (int i : l.order) {
    at = round_up(at, kPage);
    if (buffers[i].role == Role::Workspace && l.copied == 0) l.copied = at;
    l.offset[i] = at;
    l.bytes[i] = buffers[i].bytes();
    at += buffers[i].bytes() + kGuardBytes;
  }
  l.total = round_up(at, kPage);
  if (l.copied == 0) l.copied = l.total;
  return l;
}

bool same_but_workspaces(const ArenaLayout& a, const ArenaLayout& b) {
  if (a.copied != b.copied || a.offset.size() != b.offset.size()) return false;
  for (size_t i = 0; i < a.offset.size(); ++i)
    if ((a.offset[i] < a.copied || b.offset[i] < b.copied) && (a.offset[i] != b.offset[i] || a.bytes[i] != b.bytes[i]))
      return false;
  return true;
}

SharedArena::SharedArena() {
  fd_ = memfd_create("hpcjudge-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
  // The runner shares the file: a runner that could shrink it would have the
  // judge's next read of it end in SIGBUS. No seal can be added after these.
  if (fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) != 0)
    throw std::system_error(errno, std::generic_category(), "sealing the arena");
}

size_t SharedArena::file_size() const {
  struct stat st {};
  if (fstat(fd_, &st) != 0) return 0;
  return static_cast<size_t>(st.st_size);
}

PrivateArena::~PrivateArena() { release(); }

void PrivateArena::release() {
  if (base_) munmap(base_, uninit::mapped_bytes(size_));
  base_ = nullptr;
  size_ = 0;
}

void PrivateArena::reserve(size_t bytes) {
  if (bytes <= size_) return;
  release();
  // In transparent huge pages where the kernel gives them: a GPU problem's image and read-back are pinned whole
  // (cudaHostRegister faults in every page), and an image's inputs are written afresh for every input set.
  void* p = uninit::try_map_huge(bytes, MAP_NORESERVE);
  if (!p) throw std::system_error(errno, std::generic_category(), "mmap arena image");
  // Not in a forked child (a runner about to exec, a helper that kills a user's processes): a GPU problem's
  // images are pinned for the device's copies, and the kernel copies a pinned private page into the child
  // at fork, byte for byte (so that DMA keeps seeing the parent's). With GiBs pinned, each fork took seconds.
  madvise(p, uninit::mapped_bytes(bytes), MADV_DONTFORK);
  base_ = static_cast<std::byte*>(p);
  size_ = bytes;
}

SharedArena::~SharedArena() {
  if (base_) munmap(base_, size_);
  if (fd_ >= 0) close(fd_);
}

void SharedArena::reserve(size_t bytes, bool populate) {
  if (bytes <= size_) return;
  if (ftruncate(fd_, static_cast<off_t>(bytes)) != 0)
    throw std::system_error(errno, std::generic_category(), "ftruncate arena");
  if (base_) munmap(base_, size_);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap arena");
  // Every byte is written before the first call (inputs, outputs' sentinels, guard zones): faulted in here by
  // the kernel, not by those writes one page at a time (softmax-cpu's n16M: its first load took 0.72 s of the
  // case's timing budget on the 2-core VM).
  if (populate) (void)uninit::populate(p, bytes);
  base_ = static_cast<std::byte*>(p);
  size_ = bytes;
}

uint32_t guard_word(const BufferSpec& b) {
  if (b.type == DType::F32 && b.role == Role::In) return kInputFloatGuard;
  if (b.type == DType::F32 && b.role == Role::Out) return kOutputFloatGuard;
  return 0x01010101u * std::to_integer<uint32_t>(kGuardByte);
}

namespace {

// Guard zone k of a layout: [lo, hi), between the buffer `before` (-1: the arena's start) and `after` (-1: its
// end). Byte p of it is byte p % 4 of `before`'s guard word, or of `after`'s in the last kGuardLead bytes (all of
// the zone before the first buffer).
struct GuardZone {
  size_t lo = 0, hi = 0;
  int before = -1, after = -1;
  uint32_t word_before = 0, word_after = 0;
  GuardZone(const ArenaLayout& l, size_t k) {
    const size_t n = l.order.size();
    before = k == 0 ? -1 : l.order[k - 1];
    after = k == n ? -1 : l.order[k];
    lo = before < 0 ? 0 : l.offset[before] + l.bytes[before];
    hi = after < 0 ? l.total : l.offset[after];
    word_before = before >= 0 ? l.guard[before] : after >= 0 ? l.guard[after] : 0;
    word_after = after >= 0 ? l.guard[after] : word_before;
  }
  std::byte at(size_t p) const {
    const uint32_t w = p + kGuardLead >= hi ? word_after : word_before;
    unsigned char b[4];
    std::memcpy(b, &w, 4);  // the word as a float or int of the arena holds it
    return std::byte{b[p % 4]};
  }
};

}  // namespace

void fill_guards(std::byte* base, const ArenaLayout& l) {
  for (size_t k = 0; k <= l.order.size(); ++k) {
    const GuardZone z(l, k);
    for (size_t p = z.lo; p < z.hi; ++p) base[p] = z.at(p);
  }
}

void fill_sentinel(const BufferView& v) {
  if (v.spec->type == DType::F32) {
    parallel_fill(v.as<float>(), std::numeric_limits<float>::quiet_NaN());
  } else if (v.spec->type == DType::I32) {
    parallel_fill(v.as<int32_t>(), std::numeric_limits<int32_t>::min());
  } else {
    parallel_fill(std::span<std::byte>(v.data, v.spec->bytes()), std::byte{0xFF});
  }
}

std::optional<GuardViolation> check_guards(const std::byte* base, const ArenaLayout& l) {
  // Guard region k lies between the end of the k-th buffer in the arena minus
  // one (or the arena's start) and the start of the k-th (or the arena's end).
  for (size_t k = 0; k <= l.order.size(); ++k) {
    const GuardZone z(l, k);
    // Scan from both ends so the report names the write nearest to a buffer.
    for (size_t d = 0; z.lo + d < z.hi; ++d) {
      if (z.before >= 0 && base[z.lo + d] != z.at(z.lo + d)) return GuardViolation{z.before, false, d};
      if (z.after >= 0 && base[z.hi - 1 - d] != z.at(z.hi - 1 - d)) return GuardViolation{z.after, true, d + 1};
    }
  }
  return std::nullopt;
}

std::string GuardViolation::describe(const std::vector<BufferSpec>& buffers) const {
  const BufferSpec& b = buffers[buffer];
  if (before) return "write before the start of " + b.name + " (byte " + std::to_string(distance) + " before it)";
  return "write past the end of " + b.name + ": " + b.name + "[" +
         std::to_string(b.count + distance / dtype_size(b.type)) + "] (" + b.name + " has " +
         counted(b.count, "element") + "; byte " + std::to_string(distance) + " after its end)";
}

}  // namespace hpcjudge
