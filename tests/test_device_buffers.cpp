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
