#include "cpu_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include "uninitialized.h"

namespace hpcjudge {

size_t last_level_cache_bytes() {
  size_t best = 0;
  // sysfs lists every cache level of cpu0 ("32768K").
  for (int i = 0; i < 8; ++i) {
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/size");
    std::string s;
    if (!(f >> s) || s.empty()) continue;
    size_t mult = 1;
    if (s.back() == 'K') mult = 1024;
    if (s.back() == 'M') mult = 1024 * 1024;
    best = std::max(best, std::stoul(s) * mult);
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) best = std::max(best, static_cast<size_t>(l3));
#endif
  return best;
}

CacheFlusher::CacheFlusher() = default;

CacheFlusher::~CacheFlusher() {
  if (buf_) munmap(buf_, size_);
}

void CacheFlusher::flush() {
  // Mapped on first use. Virtual machines may report absurd cache sizes
  // (one here claims a 508 MiB L3), so the buffer is capped at 256 MiB. Its
  // pages are faulted in by the kernel in one call (uninit::populate), not one
  // write at a time: the first flush took 1.1 s so on the 2-core VM.
  if (!buf_) {
    const size_t bytes = std::clamp<size_t>(2 * last_level_cache_bytes(), size_t{64} << 20, size_t{256} << 20);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap the cache flush buffer");
    buf_ = static_cast<unsigned char*>(p);
    size_ = bytes;
    (void)uninit::populate(buf_, size_);
  }
  std::memset(buf_, ++round_, size_);
  volatile unsigned char sink = 0;
  for (size_t i = 0; i < size_; i += 64) sink = sink + buf_[i];
}

}  // namespace hpcjudge
