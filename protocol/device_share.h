// Device memory that one process allocates and another maps: the judge holds
// the device buffers of a GPU problem in its own CUDA context and shares them
// with its runner child, so inputs are uploaded and outputs downloaded by the
// judge while the submission's processes are stopped (docs/design.md, timing).
//
// Through the CUDA driver's virtual memory API: cuMemCreate with a POSIX file
// descriptor as its shareable handle, which travels over the judge's Unix
// socket (SCM_RIGHTS) and works across PID and IPC namespaces (bubblewrap's).
// The driver entry points come from the runtime (cudaGetDriverEntryPointByVersion),
// so nothing links libcuda and a machine without a driver still runs.
#pragma once
#include <cstddef>
#include <string>

namespace hpcjudge::device {

class SharedBuffer {
 public:
  SharedBuffer() = default;
  ~SharedBuffer();
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;
  SharedBuffer(SharedBuffer&& o) noexcept;
  SharedBuffer& operator=(SharedBuffer&& o) noexcept;

  // Allocates at least `bytes` on `device` (rounded up to the allocation
  // granularity) and maps it here. Throws std::runtime_error with the driver's
  // reason where the machine cannot share device memory this way.
  static SharedBuffer create(int device, size_t bytes);
  // Maps a buffer another process created, from its descriptor (which stays the caller's to close).
  static SharedBuffer import(int device, int fd, size_t bytes);

  // A new descriptor for the allocation (the caller closes it).
  int export_fd() const;
  std::byte* data() const { return ptr_; }
  size_t size() const { return size_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void release();
  std::byte* ptr_ = nullptr;
  size_t size_ = 0;
  unsigned long long handle_ = 0;  // CUmemGenericAllocationHandle
};

}  // namespace hpcjudge::device
