// Correct naive matmul, plus one thread writes C[M*K + 7] (28 bytes past the end). Must get RE: the write lands in the
// judge's 4 KiB guard zone after C (inside the allocation, so no CUDA fault: only the guard check catches it).
// hpcjudge-test: message=past the end of C

__global__ void matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row == 0 && col == 0) C[(long long)M * K + 7] = 0.0f;  // bug: off the end of C
    if (row >= M || col >= K) return;
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += A[(long long)row * N + n] * B[(long long)n * K + col];
    C[(long long)row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((K + 15) / 16, (M + 15) / 16);
    matmul<<<grid, block>>>(A, B, C, M, N, K);
}
