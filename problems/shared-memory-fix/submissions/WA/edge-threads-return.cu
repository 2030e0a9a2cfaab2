// The tiled matmul with only bug (b) left: threads with row >= M or col >= K return before the tile loop (the missing
// barrier after the tile product is fixed). Must get WA: the tile elements those threads should have loaded are never
// written, so in-range threads of edge blocks multiply stale shared memory (wrong results whenever M or K is not a
// multiple of 16 and the missing elements lie inside A or B). Returned threads are exited, so the barriers do not hang.

#define TILE 16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                             int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    if (row >= M || col >= K) return;  // bug (b): these threads also had tile elements to load
    float sum = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        As[ty][tx] = (row < M && t + tx < N) ? A[(long long)row * N + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < N && col < K) ? B[(long long)(t + ty) * K + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // bug (a) fixed
    }
    C[(long long)row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(TILE, TILE);
    const dim3 grid((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
