// CSR-vector, the material's second kernel: one warp per row, no setup(). Lane l sums non-zeros l, l + 32, ... of
// its row (neighbouring lanes read neighbouring addresses: coalesced), the 32 partial sums are joined by a shuffle
// tree and lane 0 writes y[row]. Must get AC: a different summation order per row, inside the per-row FP32 bound.
#include <cuda_runtime.h>

__global__ void csr_vector(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                           const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y) {
    const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (warp >= rows) return;  // a whole warp at once: the shuffle below needs all 32 lanes
    const int row = static_cast<int>(warp);
    float sum = 0.0f;
    for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += 32) sum += values[k] * x[col_idx[k]];
    for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0) y[row] = sum;
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    const long long threads = static_cast<long long>(rows) * 32;
    csr_vector<<<static_cast<unsigned>((threads + 255) / 256), 256>>>(rows, row_ptr, col_idx, values, x, y);
}
