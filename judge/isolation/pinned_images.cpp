#include "judge/isolation/pinned_images.h"

#include <algorithm>
#include <utility>

#include "sdk/uninitialized.h"

namespace hpcjudge {

PinnedImages::Block::~Block() {
  if (pinned) unpin_host(arena.base());
}

PinnedImages::PinnedImages(int device) : device_(device) {}
PinnedImages::~PinnedImages() = default;

PinnedImages::Lease::Lease(PinnedImages* pool, std::unique_ptr<Block> block) : pool_(pool), block_(std::move(block)) {}
PinnedImages::Lease::Lease(Lease&& o) noexcept : pool_(o.pool_), block_(std::move(o.block_)) { o.pool_ = nullptr; }
PinnedImages::Lease& PinnedImages::Lease::operator=(Lease&& o) noexcept {
  if (this != &o) {
    give_back();
    pool_ = o.pool_;
    block_ = std::move(o.block_);
    o.pool_ = nullptr;
  }
  return *this;
}
PinnedImages::Lease::~Lease() { give_back(); }

void PinnedImages::Lease::give_back() {
  if (pool_ && block_) pool_->give_back(std::move(block_));
  block_.reset();
  pool_ = nullptr;
}

std::byte* PinnedImages::Lease::base() const { return block_ ? block_->arena.base() : nullptr; }
size_t PinnedImages::Lease::size() const { return block_ ? block_->arena.size() : 0; }
size_t PinnedImages::Lease::pinned() const { return block_ ? block_->pinned : 0; }

void PinnedImages::Lease::pin(size_t bytes) {
  if (!block_ || bytes == 0) return;
  Block& b = *block_;
  bytes = std::min(uninit::mapped_bytes(bytes), uninit::mapped_bytes(b.arena.size()));
  if (b.pinned >= bytes) return;
  if (b.pinned) unpin_host(b.arena.base());  // a range cannot be pinned twice: the whole again
  b.pinned = 0;
  // Faulted in first, in one system call, rather than page by page by the driver.
  uninit::populate(b.arena.base(), bytes);
  if (pin_host(b.arena.base(), bytes, pool_->device_)) b.pinned = bytes;
}

bool PinnedImages::serves(const Block& b, size_t bytes, size_t pinned) {
  return b.arena.size() >= bytes && b.pinned >= std::min(pinned, uninit::mapped_bytes(b.arena.size()));
}

PinnedImages::Lease PinnedImages::take(size_t bytes) {
  {
    std::lock_guard lock(mu_);
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if ((*it)->arena.size() < bytes) continue;
      if (best == free_.end() || (*it)->pinned > (*best)->pinned ||
          ((*it)->pinned == (*best)->pinned && (*it)->arena.size() < (*best)->arena.size()))
        best = it;
    }
    if (best != free_.end()) {
      std::unique_ptr<Block> b = std::move(*best);
      free_.erase(best);
      return Lease(this, std::move(b));
    }
  }
  auto b = std::make_unique<Block>();
  b->arena.reserve(bytes);
  return Lease(this, std::move(b));
}

void PinnedImages::prepare(size_t bytes, size_t pinned, int count) {
  {
    std::lock_guard lock(mu_);
    for (const auto& b : free_)
      if (serves(*b, bytes, pinned)) --count;
  }
  for (; count > 0; --count) {
    auto b = std::make_unique<Block>();
    b->arena.reserve(bytes);
    Lease l(this, std::move(b));
    l.pin(pinned);
  }  // each lease hands its block to the free ones
}

void PinnedImages::give_back(std::unique_ptr<Block> block) {
  std::unique_ptr<Block> dropped;  // freed (unpinned, unmapped) outside the lock
  std::lock_guard lock(mu_);
  free_.push_back(std::move(block));
  if (free_.size() > kKeptFree) {
    auto least = std::min_element(free_.begin(), free_.end(), [](const auto& a, const auto& b) {
      return a->pinned != b->pinned ? a->pinned < b->pinned : a->arena.size() < b->arena.size();
    });
    dropped = std::move(*least);
    free_.erase(least);
  }
}

size_t PinnedImages::free_blocks() const {
  std::lock_guard lock(mu_);
  return free_.size();
}

size_t PinnedImages::free_pinned_bytes() const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& b : free_) n += b->pinned;
  return n;
}

}  // namespace hpcjudge
