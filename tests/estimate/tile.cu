// A 32x32 float tile in shared memory, written row-wise and read column-wise (a transpose): unpadded, a warp's
// column read hits one bank with 32 distinct words (degree 32); padded to [32][33], 32 banks (degree 1). The
// count probe's file (tests/estimate/check_counts.py).
__global__ void transpose_conflicting(const float* in, float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // CONFLICT
}

__global__ void transpose_padded(const float* in, float* out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // PADDED
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * 1024);
  cudaMalloc(&out, sizeof(float) * 1024);
  cudaMemset(in, 0, sizeof(float) * 1024);
  transpose_conflicting<<<1, dim3(32, 32)>>>(in, out);
  transpose_padded<<<1, dim3(32, 32)>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
}
