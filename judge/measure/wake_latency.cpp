#include "judge/measure/wake_latency.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace hpcjudge {

bool wake_aids_off() { return std::getenv("HPCJUDGE_NO_WAKE_AIDS") != nullptr; }

CpuWakeLatency::CpuWakeLatency() {
  if (wake_aids_off()) return;
  fd_ = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) return;
  const int32_t zero = 0;  // microseconds: the request lasts while the file stays open
  if (write(fd_, &zero, sizeof zero) != static_cast<ssize_t>(sizeof zero)) {
    close(fd_);
    fd_ = -1;
  }
}

CpuWakeLatency::~CpuWakeLatency() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace hpcjudge
