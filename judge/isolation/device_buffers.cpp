#include "judge/isolation/device_buffers.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef HPCJUDGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "harness/device_share.h"
#include "harness/spans.h"
#endif

namespace hpcjudge {

#ifndef HPCJUDGE_HAVE_CUDA
std::unique_ptr<JudgeDevice> make_judge_device(int) {
  throw std::runtime_error("the judge was built without the CUDA toolkit");
}
#else

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

class CudaJudgeDevice : public JudgeDevice {
 public:
  explicit CudaJudgeDevice(int device) : device_(device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaFree(nullptr), "creating the judge's CUDA context");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreateWithFlags(&fence_, cudaEventDisableTiming), "cudaEventCreate");
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
    flush_bytes_ = std::max<size_t>(2 * static_cast<size_t>(l2), size_t{8} << 20);
    check(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
    // A first buffer: where device memory cannot be shared, this is where it shows.
    buffers_ = device::SharedBuffer::create(device_, 1);
  }
  ~CudaJudgeDevice() override {
    for (auto& [p, n] : pinned_) cudaHostUnregister(p);
    cudaFree(flush_);
    cudaEventDestroy(fence_);
    cudaStreamDestroy(stream_);
  }
  int reserve(size_t bytes) override {
    if (bytes <= buffers_.size() && sent_) return -1;
    if (bytes > buffers_.size()) {
      buffers_ = device::SharedBuffer();
      buffers_ = device::SharedBuffer::create(device_, bytes);
    }
    sent_ = true;
    return buffers_.export_fd();
  }
  size_t size() const override { return buffers_.size(); }
  void pin(std::byte* host, size_t bytes) override {
    for (auto& [p, n] : pinned_)
      if (p == host && n >= bytes && bytes > 0) return;
    for (auto it = pinned_.begin(); it != pinned_.end();)
      if (it->first == host) cudaHostUnregister(it->first), it = pinned_.erase(it);
      else ++it;
    if (bytes == 0) return;
    // Pinned copies are several times faster; unpinned ones still work.
    if (cudaHostRegister(host, bytes, cudaHostRegisterDefault) == cudaSuccess) pinned_.push_back({host, bytes});
    else cudaGetLastError();
  }
  void upload(const std::byte* host, size_t bytes, const Spans& scratch, bool fill_scratch,
              const Spans& repeating) override {
    Spans skip = scratch;
    skip.insert(skip.end(), repeating.begin(), repeating.end());
    std::sort(skip.begin(), skip.end());
    around(bytes, skip, [&](size_t from, size_t to) {
      check(cudaMemcpyAsync(buffers_.data() + from, host + from, to - from, cudaMemcpyHostToDevice, stream_),
            "copying the inputs to the device");
    });
    for (const auto& [off, n] : repeating) {
      std::byte* d = buffers_.data() + off;
      const size_t seed = std::min({n, kRepeatSeed, bytes > off ? bytes - off : 0});
      check(cudaMemcpyAsync(d, host + off, seed, cudaMemcpyHostToDevice, stream_), "copying the sentinels to the device");
      for (size_t done = seed; seed > 0 && done < n; done *= 2)
        check(cudaMemcpyAsync(d + done, d, std::min(done, n - done), cudaMemcpyDeviceToDevice, stream_),
              "repeating the sentinels on the device");
    }
    fill(scratch, fill_scratch);
    check(cudaStreamSynchronize(stream_), "uploading the inputs");
  }
  void copy_from(const JudgeDevice& other, size_t bytes, const Spans& scratch, bool fill_scratch) override {
    const auto& from = dynamic_cast<const CudaJudgeDevice&>(other);
    if (bytes > from.size() || bytes > size()) throw std::runtime_error("copying buffers of another size on the device");
    around(bytes, scratch, [&](size_t lo, size_t hi) {
      check(cudaMemcpyAsync(buffers_.data() + lo, from.buffers_.data() + lo, hi - lo, cudaMemcpyDeviceToDevice,
                            stream_),
            "copying the inputs on the device");
    });
    fill(scratch, fill_scratch);
    check(cudaStreamSynchronize(stream_), "copying the inputs on the device");
  }
  void flush_caches() override {
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
  void download(std::byte* host, size_t bytes, const Spans& scratch) override {
    around(bytes, scratch, [&](size_t from, size_t to) {
      check(cudaMemcpyAsync(host + from, buffers_.data() + from, to - from, cudaMemcpyDeviceToHost, stream_),
            "copying the outputs from the device");
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
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
  device::SharedBuffer buffers_;
  bool sent_ = false;
  std::vector<std::pair<std::byte*, size_t>> pinned_;
};

}  // namespace

std::unique_ptr<JudgeDevice> make_judge_device(int device) { return std::make_unique<CudaJudgeDevice>(device); }
#endif

}  // namespace hpcjudge
