// vector-add baseline reference: one thread per element, 256-thread blocks, enough to cover N. Must get AC; sets the slow end of the score scale.
__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;  // a grid of 0 blocks would be a launch error
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);  // rounded up; no int overflow near INT_MAX
    add<<<blocks, threads>>>(A, B, C, N);
}
