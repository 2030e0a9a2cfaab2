// How many times each key was seen since the table was last cleared: an open-addressing table that allocates only
// when it grows and is cleared in constant time (a generation per slot), for the counters' runs of each
// instruction by each thread, looked up on every counted access (counters.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hpcjudge_emu {

class RunTable {
 public:
  // The times `key` was seen before (0 the first time), and one more now.
  uint32_t next(uint64_t key) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = spread(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = {key, 1, generation_};
        ++used_;
        return 0;
      }
      if (s.key == key) return s.runs++;
    }
  }
  void clear() {
    ++generation_;
    used_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t runs = 0, generation = 0;
  };
  static size_t spread(uint64_t k) {
    k *= 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(k ^ (k >> 32));
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const uint32_t live = generation_;
    ++generation_;  // the new slots (generation 0) and the old ones alike read as empty
    used_ = 0;
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.generation != live) continue;
      size_t i = spread(s.key) & mask;
      while (slots_[i].generation == generation_) i = (i + 1) & mask;
      slots_[i] = {s.key, s.runs, generation_};
      ++used_;
    }
  }
  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  uint32_t generation_ = 1;
  size_t used_ = 0;
};

}  // namespace hpcjudge_emu
