// Shared-memory tiled matmul: 32x32 tiles of C per block of 16x16 threads, each thread a 2x2 register block, inner
// dimension in steps of 32. Every thread loads (zero outside the matrices) and reaches both barriers; only in-range
// elements are stored. Must get AC: correct for every shape, race-free, plain FP32.

constexpr int T = 32;  // tile size; each of the 16x16 threads computes rows ty, ty+16 and columns tx, tx+16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                             int N, int K) {
    __shared__ float As[T][T + 1];  // +1: no bank conflicts on column reads
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};

    for (int n0 = 0; n0 < N; n0 += T) {
        // Each thread loads 4 elements of each tile: (ty + 16i, tx + 16j).
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                const int r = ty + 16 * i, c = tx + 16 * j;
                const int arow = row0 + r, acol = n0 + c;
                As[r][c] = (arow < M && acol < N) ? A[(long long)arow * N + acol] : 0.0f;
                const int brow = n0 + r, bcol = col0 + c;
                Bs[r][c] = (brow < N && bcol < K) ? B[(long long)brow * K + bcol] : 0.0f;
            }
        __syncthreads();  // tiles complete before anyone reads them
        for (int k = 0; k < T; ++k) {
            const float a0 = As[ty][k], a1 = As[ty + 16][k];
            const float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
            acc[0][0] += a0 * b0;
            acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0;
            acc[1][1] += a1 * b1;
        }
        __syncthreads();  // everyone done reading before the next tiles overwrite them
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            const int r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
            if (r < M && c < K) C[(long long)r * K + c] = acc[i][j];
        }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((K + T - 1) / T, (M + T - 1) / T);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
