// The 16x16 shared-memory tiled matmul with both synchronisation bugs fixed: every thread of the block loads its tile
// element (zero outside the matrices) and reaches both barriers, and only threads inside C store. Must get AC:
// correct for every shape, and racecheck/synccheck find nothing. Timed too: its performance cases run on the runner
// that waited while compute-sanitizer's own runners checked for races, which must still be alive.
// hpcjudge-test: bench

#define TILE 16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                             int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    // No early return: threads outside C still load zeros and take part in every barrier.
    float sum = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        As[ty][tx] = (row < M && t + tx < N) ? A[(long long)row * N + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < N && col < K) ? B[(long long)(t + ty) * K + col] : 0.0f;
        __syncthreads();  // the tiles are complete before anyone reads them
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone has finished reading before the next iteration overwrites them
    }
    if (row < M && col < K) C[(long long)row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(TILE, TILE);
    const dim3 grid((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
