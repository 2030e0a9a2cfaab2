// The tiled matmul with only bug (a) left: no __syncthreads() after the tile product, so a fast warp can overwrite As
// and Bs for the next tile while slower warps still read the current one (a write-after-read race). Every thread
// loads and reaches the other barrier. Must get RE: compute-sanitizer's racecheck, run on the small tests, reports
// the shared-memory hazard (without it the results are only sometimes wrong).
// hpcjudge-test: message=race

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
        // bug (a): no __syncthreads() here before the next iteration's stores
    }
    if (row < M && col < K) C[(long long)row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(TILE, TILE);
    const dim3 grid((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
