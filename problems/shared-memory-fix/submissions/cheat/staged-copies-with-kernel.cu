// expect: AC
// The honest twin of host-memcpy-no-kernel.cu and host-stdio-no-kernel.cu: A and B staged into cudaMalloc
// allocations by cudaMemcpy (device to device), the tiled product computed by a kernel with both barriers, C
// cleared with cudaMemset first and written by cudaMemcpy (cudaMemcpyDefault) from a staged result. Must get AC,
// under CPU emulation too: the emulator's own copies, fills and kernels reach device memory.

#define TILE 16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                             int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        As[ty][tx] = (row < M && t + tx < N) ? A[(long long)row * N + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < N && col < K) ? B[(long long)(t + ty) * K + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < K) C[(long long)row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const size_t a = (size_t)M * N, b = (size_t)N * K, c = (size_t)M * K;
    float* d = nullptr;
    if (cudaMalloc(&d, (a + b + c) * sizeof(float)) != cudaSuccess) return;
    cudaMemcpy(d, A, a * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpy(d + a, B, b * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemset(C, 0, c * sizeof(float));
    const dim3 block(TILE, TILE);
    const dim3 grid((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(d, d + a, d + a + b, M, N, K);
    cudaMemcpy(C, d + a + b, c * sizeof(float), cudaMemcpyDefault);
    cudaFree(d);
}
