// Correct vector add, plus one thread writes C[N + 3] (12 bytes past the end). Must get RE: the write lands in the
// judge's 4 KiB guard zone after C (inside the allocation, so no CUDA fault: only the guard check catches it).
// hpcjudge-test: message=past the end of C

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
    if (i == 0) C[(long long)N + 3] = 0.0f;  // bug: off the end of C
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);
    add<<<blocks, threads>>>(A, B, C, N);
}
