// The grade's pool of image memory (judge/isolation/pinned_images.h), what a layout copies
// (ArenaLayout::copied), and the judge's device copies over memory pinned in part (on a GPU; skipped elsewhere).
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sdk/arena.h"
#include "judge/isolation/device_buffers.h"
#include "judge/isolation/pinned_images.h"

using namespace hpcjudge;

namespace {

std::vector<BufferSpec> with_workspace(size_t workspace_bytes) {
  return {{"in", DType::F32, Role::In, 3000},
          {"ws", DType::U8, Role::Workspace, workspace_bytes},
          {"out", DType::F32, Role::Out, 5000}};
}

bool device_here() {
  try {
    make_judge_device(0);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

TEST_CASE("a layout copies everything before its workspaces, and two that differ only there agree on it") {
  const ArenaLayout small = ArenaLayout::plan(with_workspace(100)), big = ArenaLayout::plan(with_workspace(1 << 24));
  // The workspace comes last whatever its place in the signature; what is copied ends where it begins.
  CHECK(small.copied == small.offset[1]);
  CHECK(small.offset[2] < small.copied);
  CHECK(small.copied < small.total);
  CHECK(big.copied == small.copied);
  CHECK(big.total > small.total);
  CHECK(same_but_workspaces(small, big));
  CHECK_FALSE(small == big);
  // Without a workspace, everything is copied.
  const ArenaLayout none = ArenaLayout::plan({{"in", DType::F32, Role::In, 3000}, {"out", DType::F32, Role::Out, 50}});
  CHECK(none.copied == none.total);
  // Another output size is another layout of what is copied.
  std::vector<BufferSpec> other = with_workspace(100);
  other[2].count = 6000;
  CHECK_FALSE(same_but_workspaces(small, ArenaLayout::plan(other)));
  other = with_workspace(100);
  other[0].count = 1 << 22;
  CHECK_FALSE(same_but_workspaces(small, ArenaLayout::plan(other)));
}

TEST_CASE("a block handed back to the pool is the next session's, and a larger need gets a new one") {
  PinnedImages pool;
  std::byte* first = nullptr;
  {
    PinnedImages::Lease a = pool.take(3 << 20);
    REQUIRE(a.base() != nullptr);
    CHECK(a.size() >= (3u << 20));
    first = a.base();
    std::memset(a.base(), 7, a.size());  // written through
  }
  CHECK(pool.free_blocks() == 1);
  PinnedImages::Lease b = pool.take(1 << 20);  // a smaller need: the same block
  CHECK(b.base() == first);
  CHECK(pool.free_blocks() == 0);
  PinnedImages::Lease c = pool.take(8 << 20);  // none free: a new block
  CHECK(c.base() != first);
  CHECK(c.size() >= (8u << 20));
  // Replacing a lease hands the old block back first.
  b = {};
  CHECK(pool.free_blocks() == 1);
  b = pool.take(4 << 20);  // the free block is too small for it
  CHECK(b.base() != first);
  CHECK(pool.free_blocks() == 1);
}

TEST_CASE("the pool keeps a bounded number of free blocks, dropping the smallest") {
  PinnedImages pool;
  {
    std::vector<PinnedImages::Lease> held;
    for (size_t k = 1; k <= PinnedImages::kKeptFree + 2; ++k) held.push_back(pool.take(k << 20));
  }
  CHECK(pool.free_blocks() == PinnedImages::kKeptFree);
  // The largest were kept: a need of the largest size is served without a new block.
  PinnedImages::Lease big = pool.take((PinnedImages::kKeptFree + 2) << 20);
  CHECK(pool.free_blocks() == PinnedImages::kKeptFree - 1);
}

TEST_CASE("prepare() leaves blocks free for later needs, counting those already free") {
  PinnedImages pool;
  pool.prepare(2 << 20, 0, 2);
  CHECK(pool.free_blocks() == 2);
  pool.prepare(1 << 20, 0, 2);  // the two free ones serve
  CHECK(pool.free_blocks() == 2);
  PinnedImages::Lease a = pool.take(2 << 20), b = pool.take(2 << 20);
  CHECK(pool.free_blocks() == 0);
  CHECK(a.base() != b.base());
}

TEST_CASE("on a GPU, a pool's blocks stay pinned between leases and prepare() pins what it is asked") {
  if (!device_here()) SKIP("no CUDA device here");
  PinnedImages pool;
  pool.prepare(64 << 20, 16 << 20, 2);
  CHECK(pool.free_blocks() == 2);
  CHECK(pool.free_pinned_bytes() >= 2 * (16u << 20));
  PinnedImages::Lease a = pool.take(1 << 20);  // the most pinned free block, even for a small need
  CHECK(a.pinned() >= (16u << 20));
  a.pin(8 << 20);  // within the pin: nothing changes
  CHECK(a.pinned() >= (16u << 20));
  a.pin(32 << 20);  // past it: pinned again over the new extent
  CHECK(a.pinned() >= (32u << 20));
  a = {};
  CHECK(pool.free_pinned_bytes() >= (32u << 20) + (16u << 20));
}

TEST_CASE("on a GPU, copies over host memory pinned in part move every byte, and copy_from lays the guards") {
  std::unique_ptr<JudgeDevice> d, e;
  try {
    d = make_judge_device(0);
    e = make_judge_device(0);
  } catch (const std::exception& x) {
    SKIP(std::string("no device buffers here: ") + x.what());
  }
  PinnedImages pool;
  const size_t total = 6 << 20;
  PinnedImages::Lease image = pool.take(total), back = pool.take(total);
  // Pinned up to the middle of a copied range (a block pinned for another layout): the copies split there.
  image.pin(3 << 20);
  back.pin(1 << 20);
  for (size_t i = 0; i < total; ++i) image.base()[i] = static_cast<std::byte>(i * 131 % 251);
  for (int fd : {d->reserve(total), e->reserve(total)})
    if (fd >= 0) close(fd);
  const JudgeDevice::Spans scratch = {{(4 << 20) + 4096, 1 << 20}};  // a workspace, never copied
  d->upload({image.base(), image.pinned()}, total, scratch, true);
  std::memset(back.base(), 0, total);
  d->download({back.base(), back.pinned()}, total, scratch);
  const auto same = [&](size_t from, size_t to) { return std::memcmp(back.base() + from, image.base() + from, to - from) == 0; };
  CHECK(same(0, scratch[0].first));
  CHECK(same(scratch[0].first + scratch[0].second, total));
  // Another device's buffers from these: [0, copied) copied, the rest but the workspace guard bytes.
  const size_t copied = 4 << 20;
  e->copy_from(*d, copied, total, scratch, true);
  std::memset(back.base(), 0, total);
  e->download({back.base(), back.pinned()}, total, scratch);
  CHECK(same(0, copied));
  bool guards = true;
  for (size_t i = copied; i < total; ++i)
    if ((i < scratch[0].first || i >= scratch[0].first + scratch[0].second) && back.base()[i] != kGuardByte) guards = false;
  CHECK(guards);
}
