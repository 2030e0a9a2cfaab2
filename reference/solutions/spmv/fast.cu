// spmv fast reference: CSR kept as it is, read by a group of lanes per row sized to the matrix's mean row length,
// with the long rows (a power-law matrix's hubs) split into fixed chunks of non-zeros that whole warps share.
// Sets the fast end of the score scale.
//   - setup() (untimed, once per matrix) finds the rows longer than kLong non-zeros and cuts them into chunks of
//     kChunk, written to the workspace as (row, first, last) triples after a count. A uniform or stencil matrix has
//     none, and the chunk kernel returns at once.
//   - solve(), first kernel: V lanes per row (V = the power of two at or above nnz / rows, 2 to 32), each lane a
//     strided part of the row, the V partial sums joined by shuffles; consecutive groups read consecutive non-zeros,
//     so a warp's loads are coalesced whatever the row lengths. A long row is only zeroed here.
//   - solve(), second kernel: a warp per chunk (a fixed grid looping over the chunk list), its sum added to y[row] with
//     one atomicAdd. The order of the chunks' additions varies, which the per-row FP32 bound allows.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace {

constexpr int kLong = 4096;   // rows longer than this are split
constexpr int kChunk = 2048;  // non-zeros per chunk of a long row

struct Chunk {
    int row, first, last;
};

size_t max_chunks(int nnz) { return static_cast<size_t>(nnz) / kLong + static_cast<size_t>(nnz) / kChunk + 1; }

template <int V>
__global__ void rows_by_groups(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                               const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y) {
    const int lane = threadIdx.x % V;
    const long long group = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / V;
    if (group >= rows) return;  // whole groups leave together: V divides 32
    const int row = static_cast<int>(group);
    const int first = __ldg(row_ptr + row), last = __ldg(row_ptr + row + 1);
    const unsigned mask = V == 32 ? 0xffffffffu : (((1u << V) - 1) << (threadIdx.x % 32 / V * V));
    if (last - first > kLong) {
        if (lane == 0) y[row] = 0.0f;  // the chunk kernel adds it up
        return;
    }
    float sum = 0.0f;
    for (int k = first + lane; k < last; k += V) sum += __ldg(values + k) * __ldg(x + __ldg(col_idx + k));
#pragma unroll
    for (int o = V / 2; o > 0; o /= 2) sum += __shfl_down_sync(mask, sum, o, V);
    if (lane == 0) y[row] = sum;
}

__global__ void long_chunks(const Chunk* __restrict__ chunks, const int* __restrict__ count,
                            const int* __restrict__ col_idx, const float* __restrict__ values,
                            const float* __restrict__ x, float* __restrict__ y) {
    const int lane = threadIdx.x % 32;
    const int warps = gridDim.x * blockDim.x / 32;
    const int n = *count;
    for (int c = (blockIdx.x * blockDim.x + threadIdx.x) / 32; c < n; c += warps) {
        const Chunk ch = chunks[c];
        float sum = 0.0f;
        for (int k = ch.first + lane; k < ch.last; k += 32) sum += __ldg(values + k) * __ldg(x + __ldg(col_idx + k));
#pragma unroll
        for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (lane == 0) atomicAdd(y + ch.row, sum);
    }
}

template <int V>
void launch(int rows, const int* row_ptr, const int* col_idx, const float* values, const float* x, float* y) {
    const long long threads = static_cast<long long>(rows) * V;
    rows_by_groups<V><<<static_cast<unsigned>((threads + 255) / 256), 256>>>(rows, row_ptr, col_idx, values, x, y);
}

}  // namespace

extern "C" size_t workspace_size(int rows, int cols, int nnz) {
    (void)rows, (void)cols;
    return 256 + max_chunks(nnz) * sizeof(Chunk);
}

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    (void)cols, (void)col_idx, (void)values;
    // Once per matrix and untimed: the row lengths are read on the host, where cutting the chunks is simplest.
    std::vector<int> rp(static_cast<size_t>(rows) + 1);
    cudaMemcpy(rp.data(), row_ptr, rp.size() * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<Chunk> chunks;
    for (int r = 0; r < rows; ++r)
        if (rp[r + 1] - rp[r] > kLong)
            for (int k = rp[r]; k < rp[r + 1]; k += kChunk) chunks.push_back({r, k, k + kChunk < rp[r + 1] ? k + kChunk : rp[r + 1]});
    const int count = static_cast<int>(chunks.size());  // at most max_chunks(nnz): each chunk but a row's last is full
    char* ws = static_cast<char*>(workspace);
    cudaMemcpy(ws, &count, sizeof count, cudaMemcpyHostToDevice);
    if (count > 0) cudaMemcpy(ws + 256, chunks.data(), chunks.size() * sizeof(Chunk), cudaMemcpyHostToDevice);
    (void)nnz;
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols;
    if (rows <= 0) return;
    const double mean = static_cast<double>(nnz) / rows;
    if (mean <= 2) launch<2>(rows, row_ptr, col_idx, values, x, y);
    else if (mean <= 4) launch<4>(rows, row_ptr, col_idx, values, x, y);
    else if (mean <= 8) launch<8>(rows, row_ptr, col_idx, values, x, y);
    else if (mean <= 16) launch<16>(rows, row_ptr, col_idx, values, x, y);
    else launch<32>(rows, row_ptr, col_idx, values, x, y);
    if (nnz > kLong) {  // a long row is possible: the chunks (none for most matrices: the kernel reads the count, 0)
        const char* ws = static_cast<const char*>(workspace);
        long_chunks<<<264, 256>>>(reinterpret_cast<const Chunk*>(ws + 256), reinterpret_cast<const int*>(ws),
                                  col_idx, values, x, y);
    }
}
