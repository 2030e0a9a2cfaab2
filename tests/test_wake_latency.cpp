// The judge's hold on the CPUs' wake-up latency (judge/measure/wake_latency.h):
// while held, the kernel's PM QoS target is 0 us; released, it is what it was.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include "judge/measure/wake_latency.h"

using namespace hpcjudge;

namespace {
// The kernel's current target (us), as /dev/cpu_dma_latency reads.
std::optional<int32_t> target() {
  const int fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  int32_t v = -1;
  const bool ok = read(fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v);
  close(fd);
  return ok ? std::optional<int32_t>(v) : std::nullopt;
}
}  // namespace

TEST_CASE("wake latency: held, the CPUs' wake-up target is 0 us; released, it is as before") {
  const std::optional<int32_t> before = target();
  if (!before) {
    CpuWakeLatency none;  // no PM QoS file, or not root: it says so, and nothing else changes
    CHECK_FALSE(none.held());
    SKIP("/dev/cpu_dma_latency is not readable here (it needs root)");
  }
  {
    CpuWakeLatency held;
    REQUIRE(held.held());
    CHECK(*target() == 0);
  }
  CHECK(*target() == *before);
}

TEST_CASE("wake latency: HPCJUDGE_NO_WAKE_AIDS leaves the CPUs as they are") {
  const std::optional<int32_t> before = target();
  setenv("HPCJUDGE_NO_WAKE_AIDS", "1", 1);
  {
    CpuWakeLatency off;
    CHECK_FALSE(off.held());
    if (before) CHECK(*target() == *before);
  }
  unsetenv("HPCJUDGE_NO_WAKE_AIDS");
}
