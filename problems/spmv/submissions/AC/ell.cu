// ELL, as the material describes it: every row padded to the longest row's length K with zeros, stored
// column-major (slot j of row r at j * rows + r), one thread per row, so the threads of a warp read consecutive
// addresses at every step. Must get AC.
//   - workspace_size() cannot see the row lengths, so it asks for nearly the most a submission may (8 x the input's
//     bytes and the header; the limit is 8 x plus 4 MiB). setup() finds K with a max-reduction over the row lengths; where rows * K slots
//     do not fit (a power-law matrix, the dense row: ELL's padding explodes, as the statement says), it records
//     "CSR" in the workspace's header and solve() reads the CSR with one thread per row instead. The uniform,
//     stencil, band and fixed-length tests run as ELL.
//   - Padding is column 0 with value 0: 0 * x[0] adds nothing (x is finite).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

struct Header {
    int ell;  // 1: ELL below the header; 0: use the CSR
    int K;
};
constexpr size_t kHeader = 256;

size_t input_bytes(int rows, int cols, int nnz) {
    return (static_cast<size_t>(rows) + 1) * 4 + static_cast<size_t>(nnz) * 8 + static_cast<size_t>(cols) * 4;
}

__global__ void max_length(int rows, const int* row_ptr, int* K) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) atomicMax(K, row_ptr[r + 1] - row_ptr[r]);
}

__global__ void to_ell(int rows, int K, const int* row_ptr, const int* col_idx, const float* values, int* ell_col,
                       float* ell_val) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const int first = row_ptr[r], len = row_ptr[r + 1] - first;
    for (int j = 0; j < K; ++j) {
        const size_t at = static_cast<size_t>(j) * rows + r;
        ell_col[at] = j < len ? col_idx[first + j] : 0;
        ell_val[at] = j < len ? values[first + j] : 0.0f;
    }
}

__global__ void spmv_ell(int rows, const Header* h, const int* ell_col, const float* ell_val, const int* row_ptr,
                         const int* col_idx, const float* values, const float* x, float* y) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float sum = 0.0f;
    if (h->ell) {
        for (int j = 0; j < h->K; ++j) {
            const size_t at = static_cast<size_t>(j) * rows + r;
            sum += ell_val[at] * x[ell_col[at]];
        }
    } else {
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += values[k] * x[col_idx[k]];
    }
    y[r] = sum;
}

size_t slots_offset(int rows, int K) { return kHeader + (static_cast<size_t>(rows) * K * 4 + 255) / 256 * 256; }

}  // namespace

// The header comes on top, so even a 1 x 1 matrix has room for it (the limit's 4 MiB floor allows that).
extern "C" size_t workspace_size(int rows, int cols, int nnz) { return 8 * input_bytes(rows, cols, nnz) + kHeader; }

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    char* ws = static_cast<char*>(workspace);
    int* dK = reinterpret_cast<int*>(ws + 4);
    cudaMemset(ws, 0, kHeader);
    if (rows <= 0) return;
    max_length<<<(rows + 255) / 256, 256>>>(rows, row_ptr, dK);
    int K = 0;
    cudaMemcpy(&K, dK, sizeof K, cudaMemcpyDeviceToHost);
    const size_t need = slots_offset(rows, K) + static_cast<size_t>(rows) * K * 4;
    if (need > workspace_size(rows, cols, nnz)) return;  // header says CSR (ell = 0)
    int* ell_col = reinterpret_cast<int*>(ws + kHeader);
    float* ell_val = reinterpret_cast<float*>(ws + slots_offset(rows, K));
    if (K > 0) to_ell<<<(rows + 255) / 256, 256>>>(rows, K, row_ptr, col_idx, values, ell_col, ell_val);
    const int one = 1;
    cudaMemcpy(ws, &one, sizeof one, cudaMemcpyHostToDevice);
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    const char* ws = static_cast<const char*>(workspace);
    const Header* h = reinterpret_cast<const Header*>(ws);
    // The slots' place depends on K, which only the device knows: solve() gets it from the header once per call.
    Header host{};
    cudaMemcpy(&host, h, sizeof host, cudaMemcpyDeviceToHost);
    const int* ell_col = reinterpret_cast<const int*>(ws + kHeader);
    const float* ell_val = reinterpret_cast<const float*>(ws + slots_offset(rows, host.K));
    spmv_ell<<<(rows + 255) / 256, 256>>>(rows, h, ell_col, ell_val, row_ptr, col_idx, values, x, y);
}
