// solve returns int instead of void. Must get CE: conflicts with the force-included header's extern "C" declaration.
// hpcjudge-test: message=does not match the expected signature

__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= K) return;
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += A[(long long)row * N + n] * B[(long long)n * K + col];
    C[(long long)row * K + col] = sum;
}

extern "C" int solve(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(16, 16);
    const dim3 grid((K + 15) / 16, (M + 15) / 16);
    matmul<<<grid, block>>>(A, B, C, M, N, K);
    return 0;
}
