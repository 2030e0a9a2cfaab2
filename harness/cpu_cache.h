// Evicts the CPU caches before a timed call, by writing and reading a buffer
// twice the size of the last-level cache (at least 64 MiB, at most 256 MiB),
// mapped and faulted in on the first flush.
#pragma once
#include <cstddef>

namespace hpcjudge {

size_t last_level_cache_bytes();

class CacheFlusher {
 public:
  CacheFlusher();
  ~CacheFlusher();
  CacheFlusher(const CacheFlusher&) = delete;
  CacheFlusher& operator=(const CacheFlusher&) = delete;
  void flush();

 private:
  unsigned char* buf_ = nullptr;
  size_t size_ = 0;
  unsigned char round_ = 0;
};

}  // namespace hpcjudge
