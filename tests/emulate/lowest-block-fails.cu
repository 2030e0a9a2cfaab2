// Blocks 2 to 7 read past the end of `a` at once; block 1 reads past it too, but only after a long loop, so that
// blocks side by side meet block 2's error first. The grid's error must be block 1's, the one that running the
// blocks one by one meets first. (tests/emulate/check_blocks.py, through hpcjudge-count-probe.)
constexpr int kN = 256;

__global__ void late_and_early(const float* a, float* out) {
  float s = 0;
  if (blockIdx.x == 1)
    for (int r = 0; r < 100000; ++r) s += a[(r * 7 + threadIdx.x) % kN];
  if (blockIdx.x >= 1 && threadIdx.x == 0) s += a[kN + blockIdx.x];  // past the end
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  float *a, *out;
  cudaMalloc(&a, sizeof(float) * kN);
  cudaMalloc(&out, sizeof(float) * 8 * 32);
  cudaMemset(a, 0, sizeof(float) * kN);
  late_and_early<<<8, 32>>>(a, out);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(out);
}
