// spmv-cpu fast reference: CSR kept as it is, the threads' split of it chosen per matrix on this machine in setup().
// Must get AC; sets the fast end of the score scale.
//   - Merge-based CSR: the threads split the merge of row_ptr's row ends with the non-zero indices (rows + nnz
//     steps) into equal parts, each found by a binary search on its diagonal, so every thread gets the same number
//     of non-zeros and rows whatever the row lengths (a dense row of 10^5 among rows of 1 is shared by several
//     threads; a run of empty rows costs their writes only). A row cut between threads is finished by adding each
//     thread's partial sum of its last row after all are done, in thread order, so the result does not depend on
//     timing.
//   - Rows split evenly (schedule(static)) or handed out in chunks as threads come free (schedule(dynamic)): no
//     searches and no carries, which wins where the rows are alike or the cores many.
//   - setup() (untimed, once per matrix) times each way on the matrix, with a scratch x and y in the workspace,
//     and writes the fastest to the workspace, where solve() reads it; a matrix under kTuneNnz non-zeros takes the
//     merge without timing.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace {

enum Way : int { kMerge = 0, kRowsStatic = 1, kRowsDynamic = 2, kWays = 3 };
constexpr int kTuneNnz = 1 << 18;
constexpr size_t kAlign = 64;

size_t up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// The workspace: the way, then a scratch x and y for timing the ways.
struct Layout {
    size_t x, y, total;
    Layout(int rows, int cols) {
        x = kAlign;
        y = x + up(static_cast<size_t>(std::max(cols, 0)) * sizeof(float));
        total = y + up(static_cast<size_t>(std::max(rows, 0)) * sizeof(float));
    }
};

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

void merge_based(int rows, int nnz, const int* row_ptr, const int* col_idx, const float* values, const float* x,
                 float* y) {
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

inline float row_sum(int i, const int* row_ptr, const int* col_idx, const float* values, const float* x) {
    float sum = 0.0f;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += values[k] * x[col_idx[k]];
    return sum;
}

void run(int way, int rows, int nnz, const int* row_ptr, const int* col_idx, const float* values, const float* x,
         float* y) {
    switch (way) {
        case kRowsStatic:
#pragma omp parallel for schedule(static)
            for (int i = 0; i < rows; ++i) y[i] = row_sum(i, row_ptr, col_idx, values, x);
            break;
        case kRowsDynamic:
#pragma omp parallel for schedule(dynamic, 256)
            for (int i = 0; i < rows; ++i) y[i] = row_sum(i, row_ptr, col_idx, values, x);
            break;
        default:
            merge_based(rows, nnz, row_ptr, col_idx, values, x, y);
    }
}

}  // namespace

extern "C" size_t workspace_size(int rows, int cols, int nnz) {
    (void)nnz;
    return Layout(rows, cols).total;
}

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    const Layout at(rows, cols);
    char* ws = static_cast<char*>(workspace);
    int& way = *reinterpret_cast<int*>(ws);
    way = kMerge;
    if (rows <= 0 || nnz < kTuneNnz) return;
    float* x = reinterpret_cast<float*>(ws + at.x);
    float* y = reinterpret_cast<float*>(ws + at.y);
    std::fill(x, x + cols, 1.0f);
    // Each way once to warm up, then its best of three; the fastest kept.
    double best = 1e30;
    for (int w = 0; w < kWays; ++w) {
        run(w, rows, nnz, row_ptr, col_idx, values, x, y);
        double t = 1e30;
        for (int rep = 0; rep < 3; ++rep) {
            const auto begin = std::chrono::steady_clock::now();
            run(w, rows, nnz, row_ptr, col_idx, values, x, y);
            t = std::min(t, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        }
        if (t < best) best = t, way = w;
    }
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    (void)cols;
    if (rows <= 0) return;
    run(*static_cast<const int*>(workspace), rows, nnz, row_ptr, col_idx, values, x, y);
}
