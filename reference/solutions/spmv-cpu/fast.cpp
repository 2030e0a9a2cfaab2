// spmv-cpu fast reference: merge-based CSR. The work of a row is its non-zeros plus one write of y, so the
// threads split the merge of row_ptr's row ends with the non-zero indices (rows + nnz steps) into equal parts,
// each found by a binary search on its diagonal: every thread gets the same number of non-zeros and rows
// whatever the row lengths (a dense row of 10^5 among rows of 1 is shared by several threads; a run of empty
// rows costs their writes only). A row cut between threads is finished by adding each thread's partial sum of
// its last row after all are done, in thread order, so the result does not depend on timing. No setup(): the
// partition costs a few binary searches per call. Must get AC; sets the fast end of the score scale.
#include <omp.h>

#include <algorithm>
#include <vector>

namespace {

struct Coord {
    int row;  // row ends consumed
    int nz;   // non-zeros consumed
};

// The point of the merge path on diagonal d: the first d steps of merging row ends row_ptr[1..rows] with the
// non-zero indices 0..nnz-1, a row end taken first when its row's non-zeros are all consumed.
Coord merge_path_point(int d, int rows, int nnz, const int* row_ptr) {
    int lo = std::max(0, d - nnz), hi = std::min(d, rows);
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (row_ptr[mid + 1] <= d - 1 - mid) lo = mid + 1;
        else hi = mid;
    }
    return {lo, d - lo};
}

}  // namespace

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols, (void)workspace;
    if (rows <= 0) return;
    const int max_threads = omp_get_max_threads();
    std::vector<int> carry_row(static_cast<size_t>(max_threads), rows);
    std::vector<float> carry_sum(static_cast<size_t>(max_threads), 0.0f);
    int used = 1;
#pragma omp parallel
    {
        const int threads = omp_get_num_threads(), t = omp_get_thread_num();
#pragma omp single
        used = threads;
        const long long total = static_cast<long long>(rows) + nnz;
        const long long per = (total + threads - 1) / threads;
        const int d0 = static_cast<int>(std::min(total, per * t)), d1 = static_cast<int>(std::min(total, per * (t + 1)));
        const Coord begin = merge_path_point(d0, rows, nnz, row_ptr), end = merge_path_point(d1, rows, nnz, row_ptr);
        int k = begin.nz;
        for (int row = begin.row; row < end.row; ++row) {
            const int stop = row_ptr[row + 1];
            float sum = 0.0f;
            for (; k < stop; ++k) sum += values[k] * x[col_idx[k]];
            y[row] = sum;
        }
        float partial = 0.0f;  // the start of row end.row, finished by a later thread
        for (; k < end.nz; ++k) partial += values[k] * x[col_idx[k]];
        carry_row[static_cast<size_t>(t)] = end.row;
        carry_sum[static_cast<size_t>(t)] = partial;
    }
    for (int t = 0; t < used; ++t)
        if (carry_row[static_cast<size_t>(t)] < rows) y[carry_row[static_cast<size_t>(t)]] += carry_sum[static_cast<size_t>(t)];
}
