#include "protocol/device_share.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace hpcjudge::device {

namespace {

// The driver API calls this needs, resolved once through the runtime.
struct Driver {
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) address_free = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) set_access = nullptr;
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&cuMemExportToShareableHandle) export_handle = nullptr;
  decltype(&cuMemImportFromShareableHandle) import_handle = nullptr;
  decltype(&cuGetErrorName) error_name = nullptr;
  std::string missing;

  template <class F>
  void get(F& f, const char* name) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p) {
      cudaGetLastError();
      if (missing.empty()) missing = name;
      return;
    }
    f = reinterpret_cast<F>(p);
  }
  Driver() {
    get(create, "cuMemCreate");
    get(release, "cuMemRelease");
    get(reserve, "cuMemAddressReserve");
    get(address_free, "cuMemAddressFree");
    get(map, "cuMemMap");
    get(unmap, "cuMemUnmap");
    get(set_access, "cuMemSetAccess");
    get(granularity, "cuMemGetAllocationGranularity");
    get(export_handle, "cuMemExportToShareableHandle");
    get(import_handle, "cuMemImportFromShareableHandle");
    get(error_name, "cuGetErrorName");
  }
};

const Driver& driver() {
  static const Driver d;
  if (!d.missing.empty()) throw std::runtime_error("the CUDA driver has no " + d.missing);
  return d;
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = "unknown";
  if (driver().error_name) driver().error_name(r, &name);
  throw std::runtime_error(std::string(what) + ": " + name);
}

CUmemAllocationProp properties(int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

// Reserves an address range for `handle`, maps it and opens it to `device` for reading and writing.
std::byte* map_here(const Driver& d, int device, CUmemGenericAllocationHandle handle, size_t bytes) {
  CUdeviceptr ptr = 0;
  check(d.reserve(&ptr, bytes, 0, 0, 0), "cuMemAddressReserve");
  if (const CUresult r = d.map(ptr, bytes, 0, handle, 0); r != CUDA_SUCCESS) {
    d.address_free(ptr, bytes);
    check(r, "cuMemMap");
  }
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (const CUresult r = d.set_access(ptr, bytes, &access, 1); r != CUDA_SUCCESS) {
    d.unmap(ptr, bytes);
    d.address_free(ptr, bytes);
    check(r, "cuMemSetAccess");
  }
  return reinterpret_cast<std::byte*>(ptr);
}

}  // namespace

SharedBuffer::~SharedBuffer() { release(); }

SharedBuffer::SharedBuffer(SharedBuffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)), handle_(std::exchange(o.handle_, 0)) {}

SharedBuffer& SharedBuffer::operator=(SharedBuffer&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = std::exchange(o.ptr_, nullptr);
    size_ = std::exchange(o.size_, 0);
    handle_ = std::exchange(o.handle_, 0);
  }
  return *this;
}

void SharedBuffer::release() {
  if (!ptr_ && !handle_) return;
  const Driver& d = driver();
  if (ptr_) {
    d.unmap(reinterpret_cast<CUdeviceptr>(ptr_), size_);
    d.address_free(reinterpret_cast<CUdeviceptr>(ptr_), size_);
  }
  if (handle_) d.release(handle_);
  ptr_ = nullptr;
  handle_ = 0;
  size_ = 0;
}

SharedBuffer SharedBuffer::create(int device, size_t bytes) {
  const Driver& d = driver();
  // The primary context, which the runtime calls use too.
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("no CUDA context on device " + std::to_string(device));
  }
  const CUmemAllocationProp prop = properties(device);
  size_t grain = 0;
  check(d.granularity(&grain, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), "cuMemGetAllocationGranularity");
  SharedBuffer b;
  b.size_ = (std::max<size_t>(bytes, 1) + grain - 1) / grain * grain;
  CUmemGenericAllocationHandle h = 0;
  check(d.create(&h, b.size_, &prop, 0), "cuMemCreate (shareable device memory)");
  b.handle_ = h;
  b.ptr_ = map_here(d, device, h, b.size_);
  return b;
}

SharedBuffer SharedBuffer::import(int device, int fd, size_t bytes) {
  const Driver& d = driver();
  SharedBuffer b;
  CUmemGenericAllocationHandle h = 0;
  check(d.import_handle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
        "cuMemImportFromShareableHandle");
  b.handle_ = h;
  b.size_ = bytes;
  b.ptr_ = map_here(d, device, h, bytes);
  return b;
}

int SharedBuffer::export_fd() const {
  int fd = -1;
  check(driver().export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  return fd;
}

}  // namespace hpcjudge::device
