// Vector add with a fixed grid of 1024 blocks x 256 threads and no grid-stride loop. Must get WA: elements from
// index 262,144 on are never written (N = 1,000,003 and larger keep the NaN sentinel there).

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];  // bug: one element per thread, and there are only 262,144 threads
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    add<<<1024, 256>>>(A, B, C, N);
}
