// Each thread sums K floats of `a` taken a whole grid apart: a warp's lanes read 32 neighbouring floats at each
// step (one 128-byte request, 4 sectors: coalescing 1). Then every thread adds 1 to one counter and 1.0 to one
// float (atomics on one address, integer and floating-point), and 1 to its block's shared counter, which nothing
// but atomics touch. The count probe's file (tests/estimate/check_counts.py).
constexpr int kThreads = 512, kK = 8;

__global__ void sum_strided(const float* a, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < kK; ++k) s += a[k * kThreads + t];  // LOAD
  out[t] = s;  // STORE
}

__global__ void count_all(unsigned* counter, float* total) {
  __shared__ unsigned in_block;
  atomicAdd(counter, 1u);
  atomicAdd(total, 1.0f);
  atomicAdd(&in_block, 1u);
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  float *a, *out;
  unsigned* counter;
  float* total;
  cudaMalloc(&total, sizeof(float));
  cudaMalloc(&a, sizeof(float) * kThreads * kK);
  cudaMalloc(&out, sizeof(float) * kThreads);
  cudaMalloc(&counter, sizeof(unsigned));
  cudaMemset(a, 0, sizeof(float) * kThreads * kK);
  cudaMemset(counter, 0, sizeof(unsigned));
  sum_strided<<<kThreads / 256, 256>>>(a, out);
  count_all<<<kThreads / 256, 256>>>(counter, total);
  cudaDeviceSynchronize();
  unsigned host = 0;
  cudaMemcpy(&host, counter, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(out);
  cudaFree(counter);
  cudaFree(total);
}
