// The judge's device buffers (judge/isolation/device_buffers.h), on a machine with a GPU; skipped elsewhere.
#include <unistd.h>

#include <bit>
#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sdk/arena.h"
#include "judge/isolation/device_buffers.h"

using namespace hpcjudge;

TEST_CASE("an upload with repeating spans puts on the device every byte the image holds") {
  std::unique_ptr<JudgeDevice> d;
  try {
    d = make_judge_device(0);
  } catch (const std::exception& e) {
    SKIP(std::string("no device buffers here: ") + e.what());
  }
  constexpr size_t seed = JudgeDevice::kRepeatSeed;
  // A float output of 3 seeds and 12 bytes (NaN words), then 100 input bytes, a byte output of 2 seeds and 5 bytes
  // (0xFF), then a short one under a seed: lengths that no doubling of the seed ends on.
  const size_t a = 4096, na = 3 * seed + 12, b = a + na + 100, nb = 2 * seed + 5, c = b + nb + 64, nc = seed / 2;
  const size_t total = c + nc + 4096;
  std::vector<std::byte> image(total), back(total);
  for (size_t i = 0; i < total; ++i) image[i] = static_cast<std::byte>(i * 131 % 251);
  const auto nan = std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN());
  for (size_t i = 0; i < na; i += 4) std::memcpy(&image[a + i], &nan, 4);
  std::memset(&image[b], 0xFF, nb);
  std::memset(&image[c], 0xFF, nc);
  const int fd = d->reserve(total);
  if (fd >= 0) close(fd);
  d->upload({image.data(), 0}, total, {}, true, {{a, na}, {b, nb}, {c, nc}});
  d->download({back.data(), 0}, total, {});
  CHECK(back == image);
}

TEST_CASE("a stage is never exported or flushed from, and a runner's buffers are copied from it on the device") {
  std::unique_ptr<JudgeDevice> stage, d;
  try {
    stage = make_judge_device(0, {.stage = true});
    d = make_judge_device(0);
  } catch (const std::exception& e) {
    SKIP(std::string("no device buffers here: ") + e.what());
  }
  const size_t copied = (3 << 20) + 12, total = (5 << 20) + 4096;
  CHECK(stage->reserve(copied) == -1);  // no runner maps it
  CHECK(stage->size() >= copied);
  CHECK_THROWS_AS(stage->flush_caches(), std::logic_error);
  std::vector<std::byte> image(copied), back(total);
  for (size_t i = 0; i < copied; ++i) image[i] = static_cast<std::byte>(i * 131 % 251);
  stage->upload({image.data(), 0}, copied, {}, false, {});
  if (const int fd = d->reserve(total); fd >= 0) close(fd);
  d->copy_from(*stage, copied, total, {}, false);
  d->flush_caches();  // the runner's device still flushes
  d->download({back.data(), 0}, total, {});
  CHECK(std::memcmp(back.data(), image.data(), copied) == 0);
  bool guards = true;
  for (size_t i = copied; i < total; ++i) guards = guards && back[i] == kGuardByte;
  CHECK(guards);
}
