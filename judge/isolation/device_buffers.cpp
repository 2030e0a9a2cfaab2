#include "judge/isolation/device_buffers.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "judge/isolation/pinned_images.h"

#ifdef HPCJUDGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "sdk/arena.h"
#include "protocol/device_share.h"
#include "sdk/spans.h"
#endif

namespace hpcjudge {

#ifndef HPCJUDGE_HAVE_CUDA
std::unique_ptr<JudgeDevice> make_judge_device(int, const JudgeDeviceOptions&) {
  throw std::runtime_error("the judge was built without the CUDA toolkit");
}
bool pin_host(std::byte*, size_t, int) { return false; }
void unpin_host(std::byte*) {}
#else

bool pin_host(std::byte* p, size_t bytes, int device) {
  // The grade's device current (a thread of its own that pins would make a context on device 0), and portable:
  // pinned for every context's copies.
  if (cudaSetDevice(device) == cudaSuccess &&
      cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess)
    return true;
  cudaGetLastError();  // pinned copies are several times faster; unpinned ones still work
  return false;
}

void unpin_host(std::byte* p) {
  if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
}

namespace {

// f(from, to) over [from, to), in two where `at` falls inside it.
template <typename F>
void split_at(size_t from, size_t to, size_t at, F&& f) {
  if (from < at && at < to) {
    f(from, at);
    f(at, to);
  } else if (from < to) {
    f(from, to);
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// Device memory of the judge's own: exportable to a runner (device::SharedBuffer), or for a stage a plain
// allocation that no other process can map.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() { release(); }
  // At least `bytes` (at least 1) on `device`, in place of what was held.
  void make(int device, size_t bytes, bool shared) {
    release();
    if (shared) {
      shared_ = device::SharedBuffer::create(device, bytes);
      return;
    }
    void* p = nullptr;
    // cudaMalloc allocates on the calling thread's current device, which SharedBuffer::create names itself.
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaMalloc(&p, std::max<size_t>(bytes, 1)), "allocating the stage on the device");
    plain_ = static_cast<std::byte*>(p);
    plain_size_ = std::max<size_t>(bytes, 1);
  }
  std::byte* data() const { return plain_ ? plain_ : shared_.data(); }
  size_t size() const { return plain_ ? plain_size_ : shared_.size(); }
  int export_fd() const { return plain_ ? -1 : shared_.export_fd(); }

 private:
  void release() {
    shared_ = device::SharedBuffer();
    if (plain_) cudaFree(plain_);
    plain_ = nullptr;
    plain_size_ = 0;
  }
  device::SharedBuffer shared_;
  std::byte* plain_ = nullptr;
  size_t plain_size_ = 0;
};

class CudaJudgeDevice : public JudgeDevice {
 public:
  CudaJudgeDevice(int device, const JudgeDeviceOptions& opt) : device_(device), stage_(opt.stage) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaFree(nullptr), "creating the judge's CUDA context");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreateWithFlags(&fence_, cudaEventDisableTiming), "cudaEventCreate");
    if (!stage_) {  // a stage is never flushed from: its copies are the judge's, before the flush of each call
      int l2 = 0;
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
      flush_bytes_ = std::max<size_t>(2 * static_cast<size_t>(l2), size_t{8} << 20);
      check(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
    }
    // A first buffer: where device memory cannot be shared, this is where it shows (a stage's is a plain one).
    buffers_.make(device_, 1, !stage_);
  }
  ~CudaJudgeDevice() override {
    if (flush_) cudaFree(flush_);
    cudaEventDestroy(fence_);
    cudaStreamDestroy(stream_);
  }
  int reserve(size_t bytes) override {
    if (bytes <= buffers_.size() && sent_) return -1;
    if (bytes > buffers_.size()) buffers_.make(device_, bytes, !stage_);
    sent_ = true;
    return buffers_.export_fd();  // -1 for a stage: no runner maps it
  }
  size_t size() const override { return buffers_.size(); }
  void upload(Host host, size_t bytes, const Spans& scratch, bool fill_scratch, const Spans& repeating) override {
    Spans skip = scratch;
    skip.insert(skip.end(), repeating.begin(), repeating.end());
    std::sort(skip.begin(), skip.end());
    around(bytes, skip, [&](size_t from, size_t to) {
      split_at(from, to, host.pinned, [&](size_t a, size_t b) {
        check(cudaMemcpyAsync(buffers_.data() + a, host.base + a, b - a, cudaMemcpyHostToDevice, stream_),
              "copying the inputs to the device");
      });
    });
    for (const auto& [off, n] : repeating) {
      std::byte* d = buffers_.data() + off;
      const size_t seed = std::min({n, kRepeatSeed, bytes > off ? bytes - off : 0});
      split_at(off, off + seed, host.pinned, [&](size_t a, size_t b) {
        check(cudaMemcpyAsync(buffers_.data() + a, host.base + a, b - a, cudaMemcpyHostToDevice, stream_),
              "copying the sentinels to the device");
      });
      for (size_t done = seed; seed > 0 && done < n; done *= 2)
        check(cudaMemcpyAsync(d + done, d, std::min(done, n - done), cudaMemcpyDeviceToDevice, stream_),
              "repeating the sentinels on the device");
    }
    fill(scratch, fill_scratch);
    check(cudaStreamSynchronize(stream_), "uploading the inputs");
  }
  void copy_from(const JudgeDevice& other, size_t copied, size_t bytes, const Spans& scratch,
                 bool fill_scratch) override {
    const auto& from = dynamic_cast<const CudaJudgeDevice&>(other);
    copied = std::min(copied, bytes);
    if (copied > from.size() || bytes > size()) throw std::runtime_error("copying buffers of another size on the device");
    around(bytes, scratch, [&](size_t lo, size_t hi) {
      split_at(lo, hi, copied, [&](size_t a, size_t b) {
        if (a < copied)
          check(cudaMemcpyAsync(buffers_.data() + a, from.buffers_.data() + a, b - a, cudaMemcpyDeviceToDevice,
                                stream_),
                "copying the inputs on the device");
        else
          check(cudaMemsetAsync(buffers_.data() + a, std::to_integer<int>(kGuardByte), b - a, stream_),
                "filling the guard zones on the device");
      });
    });
    fill(scratch, fill_scratch);
    check(cudaStreamSynchronize(stream_), "copying the inputs on the device");
  }
  void flush_caches() override {
    if (!flush_) throw std::logic_error("a stage's caches are never flushed from: flush the runner's device");
    // What a submission set aside in L2 (an access policy window) must not survive into the timed call.
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaCtxResetPersistingL2Cache();
    cudaGetLastError();  // a device without persisting L2 says so; nothing to reset there
    static unsigned char round = 0;
    check(cudaMemsetAsync(flush_, ++round, flush_bytes_, stream_), "flushing the L2");
    check(cudaStreamSynchronize(stream_), "flushing the L2");
  }
  void fence() override {
    check(cudaEventRecord(fence_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(fence_), "waiting for the device");
  }
  void download(Host host, size_t bytes, const Spans& scratch) override {
    around(bytes, scratch, [&](size_t from, size_t to) {
      split_at(from, to, host.pinned, [&](size_t a, size_t b) {
        check(cudaMemcpyAsync(host.base + a, buffers_.data() + a, b - a, cudaMemcpyDeviceToHost, stream_),
              "copying the outputs from the device");
      });
    });
    check(cudaStreamSynchronize(stream_), "downloading the outputs");
  }

 private:
  void fill(const Spans& scratch, bool fill_scratch) {
    for (const auto& [off, n] : scratch)
      if (fill_scratch) check(cudaMemsetAsync(buffers_.data() + off, garbage_byte(), n, stream_), "filling the workspace");
  }

  int device_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t fence_ = nullptr;
  bool stage_ = false;
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
  DeviceMemory buffers_;
  bool sent_ = false;
};

}  // namespace

std::unique_ptr<JudgeDevice> make_judge_device(int device, const JudgeDeviceOptions& opt) {
  return std::make_unique<CudaJudgeDevice>(device, opt);
}
#endif

}  // namespace hpcjudge
