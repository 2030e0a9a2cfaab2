#include "runner_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace hpcjudge {

void RunnerMemory::map_device(int, size_t) { throw std::runtime_error("this problem's buffers are not on the device"); }
void RunnerMemory::upload(const std::vector<protocol::CallArg>&, size_t, bool) {}
void RunnerMemory::download(const std::vector<protocol::CallArg>&, size_t) {}

ArenaMapping::~ArenaMapping() {
  if (base_) munmap(base_, size_);
}

void ArenaMapping::map(size_t bytes) {
  if (bytes <= size_) return;
  if (base_) munmap(base_, size_);
  base_ = nullptr;
  size_ = 0;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) throw std::runtime_error(std::string("mmap arena: ") + std::strerror(errno));
  base_ = static_cast<std::byte*>(p);
  size_ = bytes;
}

namespace {

class HostMemory : public RunnerMemory {
 public:
  explicit HostMemory(int fd) : arena_(fd) {}
  void map_arena(size_t bytes) override { arena_.map(bytes); }
  void* pointer(const protocol::CallArg& a, size_t) override {
    if (a.offset + a.bytes > arena_.size()) throw std::runtime_error("a buffer outside the mapped arena");
    return arena_.base() + a.offset;
  }

 private:
  ArenaMapping arena_;
};

}  // namespace

std::unique_ptr<RunnerMemory> host_memory(int arena_fd) { return std::make_unique<HostMemory>(arena_fd); }

}  // namespace hpcjudge
