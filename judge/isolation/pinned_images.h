// The judge's host memory for the calls' images and read-backs, kept between the sessions of a grade.
//
// A GPU problem's image (what the judge uploads) and read-back (what it downloads into) are pinned: page-locked
// and mapped for the device's copies, which are then several times faster. Pinning is slow, 0.3-0.5 s a GiB on
// the H200, and each runner of a grade used to pin its own, at the first load of its largest case: 0.1-0.7 s in
// each of the performance cases' first runs, 1.8 s in rle-compress's. Here a session's memory is a block on
// loan from the grade's pool: a session that ends or grows hands its blocks back pinned as they are, and the
// next session takes them (the performance cases' runner the functional tests' memory), and the grade pins
// what its largest case will need while the submission compiles (prepare()).
//
// Only what a layout copies is pinned, [0, ArenaLayout::copied): a workspace is never copied, so its pages are
// never touched (the copies split at the pinned end: JudgeDevice). A block is mapped as PrivateArena maps an
// image (private, in transparent huge pages where the kernel gives them, never inherited by a fork).
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "sdk/arena.h"

namespace hpcjudge {

class PinnedImages {
  struct Block {
    PrivateArena arena;
    size_t pinned = 0;  // [0, pinned) pinned
    Block() = default;
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    ~Block();
  };

 public:
  // Free blocks kept past this many (the smallest first go back to the kernel).
  static constexpr size_t kKeptFree = 4;

  // Pinned for the copies of CUDA device `device` (the grade's): a thread that pins makes it its current device,
  // so that the pins beside the compile never make a context on another device.
  explicit PinnedImages(int device = 0);
  ~PinnedImages();
  PinnedImages(const PinnedImages&) = delete;
  PinnedImages& operator=(const PinnedImages&) = delete;

  // A block on loan: handed back to its pool when the lease ends or is replaced.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& o) noexcept;
    Lease& operator=(Lease&& o) noexcept;
    ~Lease();
    std::byte* base() const;
    size_t size() const;    // what the memory holds (at least what take() asked)
    size_t pinned() const;  // [0, pinned()) is pinned for the device's copies
    // At least [0, bytes) pinned, where this machine can (a CUDA device; else nothing changes). A larger pin
    // is kept; a smaller one is dropped and made again over the new extent.
    void pin(size_t bytes);

   private:
    friend class PinnedImages;
    Lease(PinnedImages* pool, std::unique_ptr<Block> block);
    void give_back();
    PinnedImages* pool_ = nullptr;
    std::unique_ptr<Block> block_;
  };

  // At least `bytes`: the free block of the most pinned memory that holds it (then the smallest), else a new one.
  Lease take(size_t bytes);
  // `count` blocks of at least `bytes`, each with [0, pinned) pinned, left free for later take()s; free blocks
  // that already serve so count towards them. Safe beside take() on another thread.
  void prepare(size_t bytes, size_t pinned, int count);
  // Free blocks now, and how many bytes of them are pinned.
  size_t free_blocks() const;
  size_t free_pinned_bytes() const;

 private:
  void give_back(std::unique_ptr<Block> block);
  static bool serves(const Block& b, size_t bytes, size_t pinned);

  const int device_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Block>> free_;
};

// Host memory pinned (page-locked, mapped for every CUDA context's copies) in place, with `device` made this
// thread's current one first; false where it cannot be (no CUDA device, no CUDA in this build, or the driver
// refused). unpin_host() undoes a pin_host() that succeeded.
bool pin_host(std::byte* p, size_t bytes, int device);
void unpin_host(std::byte* p);

}  // namespace hpcjudge
