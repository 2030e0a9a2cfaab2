// Matmul on tensor cores with the WMMA API in TF32 (m16n16k8 fragments, FP32 accumulation): one warp per 16x16 tile
// of C, edges zero-padded through shared memory. Must get WA: TF32 keeps 10 mantissa bits, so each product errs by
// ~2^-11 relative, far above the FP32 tolerance 4 * N * 2^-24 (1x1x1 alone errs by ~1e-4 against 2.4e-7).
// hpcjudge-test: message=of C wrong
#include <mma.h>

using namespace nvcuda;

__global__ void matmul_tf32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
    __shared__ __align__(32) float As[16 * 8];   // 16 x 8 tile of A, row-major
    __shared__ __align__(32) float Bs[8 * 16];   // 8 x 16 tile of B, row-major
    __shared__ __align__(32) float Cs[16 * 16];  // the accumulator, for the bounds-checked store
    const int lane = threadIdx.x;                // one warp per block
    const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;

    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(c, 0.0f);

    for (int n0 = 0; n0 < N; n0 += 8) {
        for (int e = lane; e < 128; e += 32) {
            const int ar = row0 + e / 8, ac = n0 + e % 8;
            As[e] = (ar < M && ac < N) ? A[(long long)ar * N + ac] : 0.0f;
            const int br = n0 + e / 16, bc = col0 + e % 16;
            Bs[e] = (br < N && bc < K) ? B[(long long)br * K + bc] : 0.0f;
        }
        __syncwarp();
        wmma::load_matrix_sync(a, As, 8);
        wmma::load_matrix_sync(b, Bs, 16);
        for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);  // bug: TF32 inputs
        for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
        wmma::mma_sync(c, a, b, c);
        __syncwarp();  // fragments loaded before the next tile overwrites As and Bs
    }
    wmma::store_matrix_sync(Cs, c, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        const int r = row0 + e / 16, col = col0 + e % 16;
        if (r < M && col < K) C[(long long)r * K + col] = Cs[e];
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const dim3 grid((K + 15) / 16, (M + 15) / 16);
    matmul_tf32<<<grid, 32>>>(A, B, C, M, N, K);
}
