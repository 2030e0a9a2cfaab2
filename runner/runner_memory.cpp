#include "runner/runner_memory.h"

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
  overlaid_ = 0;
}

void ArenaMapping::overlay(int fd, size_t bytes) {
  if (bytes > size_) throw std::runtime_error("the common arena is larger than the mapped arena");
  const auto fixed = [&](size_t from, size_t n, int file) {
    if (n && mmap(base_ + from, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, file, static_cast<off_t>(from)) ==
                 MAP_FAILED)
      throw std::runtime_error(std::string("mmap common arena: ") + std::strerror(errno));
  };
  // A smaller common part than before: the rest (this layout's workspaces) back on the runner's own file.
  if (bytes < overlaid_) fixed(bytes, overlaid_ - bytes, fd_);
  fixed(0, bytes, fd);
  overlaid_ = bytes;
}

void RunnerMemory::map_common(int, size_t) { throw std::runtime_error("a common arena where the buffers are not in host memory"); }

namespace {

class HostMemory : public RunnerMemory {
 public:
  explicit HostMemory(int fd) : arena_(fd) {}
  void map_arena(size_t bytes) override { arena_.map(bytes); }
  void map_common(int fd, size_t bytes) override { arena_.overlay(fd, bytes); }
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
