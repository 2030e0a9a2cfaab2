// The arena: every buffer of a call laid out in one block of memory. The judge
// builds each call's arena image in memory of its own (PrivateArena: inputs,
// NaN sentinels, guard zones), where the runner cannot see it, and copies it
// into the memory the runner calls on only while the submission is stopped,
// just before the call: the shared-memory file (SharedArena, a memfd sealed
// against shrinking) for a CPU problem, the judge's device buffers for a GPU
// problem. After the call the judge checks guards, inputs and outputs itself,
// so what it verifies is never the child's own say-so.
//
// Layout: each buffer starts on a page boundary with at least kGuardBytes of
// guard bytes before and after it. Workspaces come last, after every other
// buffer: their pages are never written on the host, so a large one costs no
// host memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sdk/problem.h"

namespace hpcjudge {

inline constexpr size_t kGuardBytes = 4096;
// The guard zones' bytes, by what lies next to them. A buffer's guard word is repeated, 4-byte aligned in the
// arena, over the zone after it and over the last kGuardLead bytes of the zone before it (all of the zone before
// the first buffer). What a stray read finds there must spoil any answer that uses it:
// - an F32 input: 0x7FA5A5A5, an F32 output: 0x7F85A5A5. Signalling NaNs: any arithmetic on one gives a NaN
//   (so a sum that reads past its input is WA, as under emulation, which faults the read), and never the
//   signalling NaN itself (a quiet one: the GPU's canonical NaN, on x86 the payload with the quiet bit set), so
//   a write past an output of a value computed from a guard (out[N] += x) still changes the guard. Two words,
//   so that a guard copied from past an input to past an output changes it too. Any aligned float read in a
//   zone is a NaN; a read at an offset of 1 to 3 bytes is not (no float load does that: on a GPU it faults).
// - anything else (integers, workspaces): kGuardByte repeated. As int32 it is -1515870811 (it moves a sum far
//   from its answer, a merge takes it before every key but those of the whole-int32-range test, an index of it
//   faults in the submission's process, never the judge's), as uint32 2779096485 (a run length or count far
//   past any buffer), as a byte 0xA5.
// The write check compares every guard byte with the word laid there (check_guards).
inline constexpr std::byte kGuardByte{0xA5};
inline constexpr size_t kGuardLead = 256;
inline constexpr uint32_t kInputFloatGuard = 0x7FA5A5A5u, kOutputFloatGuard = 0x7F85A5A5u;
uint32_t guard_word(const BufferSpec& b);

struct ArenaLayout {
  std::vector<size_t> offset;  // of each buffer's first byte
  std::vector<size_t> bytes;
  std::vector<int> order;      // buffer indices by increasing offset
  size_t total = 0;
  // [0, copied): every buffer but the workspaces (laid out last, never copied), with their guard zones; the
  // workspaces and the guards after them lie in [copied, total). Two layouts of one case that differ only in
  // their workspaces' sizes agree on all of [0, copied) (same_but_workspaces).
  size_t copied = 0;
  std::vector<uint32_t> guard;  // each buffer's guard_word()
  static ArenaLayout plan(const std::vector<BufferSpec>& buffers);
  bool operator==(const ArenaLayout&) const = default;
};

// The same buffers at the same offsets in [0, copied): layouts of one case for two solutions whose workspaces
// differ (a rival's inputs copied from the submission's, on the device).
bool same_but_workspaces(const ArenaLayout& a, const ArenaLayout& b);

class SharedArena {
 public:
  SharedArena();  // an empty memfd, sealed against shrinking
  ~SharedArena();
  SharedArena(const SharedArena&) = delete;
  SharedArena& operator=(const SharedArena&) = delete;
  // Grows the file and the mapping to at least `bytes`, faulted in unless `populate` is false (a session whose
  // buffers lie in the grade's common arena leaves all but its workspaces' pages of its own untouched).
  void reserve(size_t bytes, bool populate = true);
  std::byte* base() const { return base_; }
  size_t size() const { return size_; }
  int fd() const { return fd_; }
  // The file's size now: the judge's own size unless the runner grew it (it cannot shrink it).
  size_t file_size() const;

 private:
  int fd_ = -1;
  std::byte* base_ = nullptr;
  size_t size_ = 0;
};

// Memory of the judge's own for arena images: anonymous and private, so pages
// never written (a large workspace's) cost nothing.
class PrivateArena {
 public:
  PrivateArena() = default;
  ~PrivateArena();
  PrivateArena(const PrivateArena&) = delete;
  PrivateArena& operator=(const PrivateArena&) = delete;
  // At least `bytes`; a larger reserve moves the memory (its contents are not kept).
  void reserve(size_t bytes);
  // Gives the memory back now (the arena is empty after it).
  void release();
  std::byte* base() const { return base_; }
  size_t size() const { return size_; }

 private:
  std::byte* base_ = nullptr;
  size_t size_ = 0;
};

// Fills every byte outside the buffers with its guard word's byte (guard_word; workspaces', kGuardByte, are what
// the judge's device copies lay past ArenaLayout::copied).
void fill_guards(std::byte* base, const ArenaLayout& layout);

// Fills an output buffer with its sentinel: NaN for floats, INT32_MIN for int32 (problems keep their
// values above it), 0xFF bytes for the other integers. A 4-byte word (or one byte) repeated, whatever the
// type: the judge's device copies repeat it on the device (JudgeDevice::upload's `repeating`), and a change
// here that broke the period would break them.
void fill_sentinel(const BufferView& v);

struct GuardViolation {
  int buffer = 0;       // the buffer the write was next to
  bool before = false;  // before its start (else past its end)
  size_t distance = 0;  // bytes from the buffer's edge to the first changed guard byte
  std::string describe(const std::vector<BufferSpec>& buffers) const;
};

std::optional<GuardViolation> check_guards(const std::byte* base, const ArenaLayout& layout);

}  // namespace hpcjudge
