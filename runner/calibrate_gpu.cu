// GPU speed of light: copy bandwidth and FP32 FMA throughput of one device.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "runner/calibrate.h"
#include "runner/device_memory.h"

namespace hpcjudge::calibrate {

namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

constexpr int kChains = 8;
constexpr int kIterations = 4096;

// kChains independent fmaf chains per thread; the result is stored so nothing is optimised away.
__global__ void fma_kernel(float* out, float a, float b) {
  float acc[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) acc[c] = b * (threadIdx.x + c);
  for (int i = 0; i < kIterations; ++i)
#pragma unroll
    for (int c = 0; c < kChains; ++c) acc[c] = fmaf(acc[c], a, b);
  float s = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) s += acc[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The best of `reps` timings of `run`, in seconds (CUDA events).
template <class F>
float best_of(int reps, F run) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0);
    run();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    best = std::min(best, ms / 1e3f);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return best;
}

}  // namespace

nlohmann::json gpu(int index) {
  device::RunnerAllocation mine;
  if (cudaSetDevice(index) != cudaSuccess) return {{"error", "cudaSetDevice failed"}};
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, index);
  const size_t bytes = size_t{1} << 30;  // 1 GiB each way: far past the L2
  void *in = nullptr, *out = nullptr, *sink = nullptr;
  if (cudaMalloc(&in, bytes) != cudaSuccess || cudaMalloc(&out, bytes) != cudaSuccess)
    return {{"error", "cannot allocate 2 GiB for the copy"}};
  cudaMemset(in, 1, bytes);
  cudaMemset(out, 0, bytes);
  const float memcpy_s = best_of(8, [&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); });
  const size_t n4 = bytes / sizeof(float4);
  const int blocks = p.multiProcessorCount * 8;
  const float kernel_s = best_of(8, [&] {
    copy_kernel<<<blocks, 512>>>(static_cast<const float4*>(in), static_cast<float4*>(out), n4);
  });
  const int threads = 256, fma_blocks = p.multiProcessorCount * 16;
  cudaMalloc(&sink, sizeof(float) * threads * fma_blocks);
  const float fma_s =
      best_of(5, [&] { fma_kernel<<<fma_blocks, threads>>>(static_cast<float*>(sink), 0.999999f, 1e-7f); });
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(sink);
  if (e != cudaSuccess) return {{"error", std::string("calibration kernels failed: ") + cudaGetErrorString(e)}};
  const double flops = 2.0 * kChains * kIterations * static_cast<double>(threads) * fma_blocks;
  return {{"copy_gbps", 2.0 * static_cast<double>(bytes) / std::min(memcpy_s, kernel_s) / 1e9},
          {"memcpy_gbps", 2.0 * static_cast<double>(bytes) / memcpy_s / 1e9},
          {"copy_kernel_gbps", 2.0 * static_cast<double>(bytes) / kernel_s / 1e9},
          {"fma_gflops", flops / fma_s / 1e9},
          {"how", "device-to-device copy of 1 GiB, the better of cudaMemcpy and a float4 kernel (read + write); "
                  "8 independent fmaf chains per thread, 16 blocks of 256 threads per SM"}};
}

}  // namespace hpcjudge::calibrate
