// spmv fast reference: CSR kept as it is, read by groups of V lanes per row (V from 1 to 32), chosen per matrix in
// setup(); the long rows (a power-law matrix's hubs) split into fixed chunks of non-zeros that whole warps share.
// Sets the fast end of the score scale.
//   - Two ways to give rows their lanes (a Plan, in the workspace):
//       one width: every row gets V lanes, rows in order (a uniform or stencil matrix, whose rows are alike);
//       bins: each row gets the V at or above its length / f (each lane about f non-zeros), the rows listed by bin,
//       in order within each (a power-law matrix, where one width either idles lanes on short rows or leaves a
//       long row to a few).
//     Both run as one kernel over warp-sized units (32 / V rows of one bin each), a fixed grid looping over them, so
//     the host never needs the bins' sizes.
//   - setup() (untimed, once per matrix) reads the row lengths, cuts the rows longer than kLong into chunks of kChunk
//     non-zeros, and picks the plan. Above kTuneNnz non-zeros it times every candidate (each width, and bins for three
//     f where rows differ) on the matrix, on this GPU, with a scratch x and y in the workspace, and keeps the fastest, the rule's plan
//     timed first and the timing stopped after kTuneBudget seconds; below, the rule: one width of about mean / 4
//     lanes for rows alike, else bins of f = 4.
//   - solve(): the rows kernel (a long row only zeroed there), then, where there are chunks, a warp per chunk adding
//     its sum to y[row] with one atomicAdd. The order of the chunks' additions varies, which the per-row FP32 bound
//     allows. A one-width plan runs as a kernel launched whole (a warp per unit, no fixed grid, no plan to read on
//     the device): solve() launches by the plan setup() last wrote, kept on the host with the workspace it went to.
//   - A lane takes four of its row's non-zeros at a time, their loads in flight together.
#include <cuda_runtime.h>
#include <time.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace {

constexpr int kLong = 4096;            // rows longer than this are split
constexpr int kChunk = 2048;           // non-zeros per chunk of a long row
constexpr int kBins = 6;               // V = 1, 2, 4, 8, 16, 32
constexpr long long kTuneNnz = 1 << 22;  // above this many non-zeros the plan is timed, not guessed
constexpr double kTuneBudget = 1.0;     // seconds of setup() for the timing, at most (the rule's plan always)
constexpr size_t kAlign = 256;

struct Chunk {
    int row, first, last;
};

struct Plan {
    int binned;             // 0: one width for every row, rows in order; 1: the rows by bin, from the list
    int width_bin;          // one width: its bin (V = 1 << width_bin)
    int start[kBins + 1];   // bins: bin b's rows are list[start[b] .. start[b + 1])
    int units[kBins + 1];   // warp units before bin b (one width: units[1] of them, all its)
    int chunks;             // long-row chunks
};

size_t up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
size_t max_chunks(int nnz) { return static_cast<size_t>(nnz) / kLong + static_cast<size_t>(nnz) / kChunk + 1; }

// The workspace: the plan, the row list, the chunks, then a scratch x and y for timing the candidates.
struct Layout {
    size_t list, chunks, x, y, total;
    Layout(int rows, int cols, int nnz) {
        list = up(sizeof(Plan));
        chunks = list + up(static_cast<size_t>(rows) * sizeof(int));
        x = chunks + up(max_chunks(nnz) * sizeof(Chunk));
        y = x + up(static_cast<size_t>(cols) * sizeof(float));
        total = y + up(static_cast<size_t>(rows) * sizeof(float));
    }
};

// A warp's unit: 32 / V rows of one bin, V lanes each; i is this lane's group's index in the bin.
template <int V>
__device__ void unit_rows(long long i, int count, const int* __restrict__ list, const int* __restrict__ row_ptr,
                          const int* __restrict__ col_idx, const float* __restrict__ values,
                          const float* __restrict__ x, float* __restrict__ y) {
    const int lane = threadIdx.x % V;
    int row = -1, first = 0, last = 0;
    if (i < count) {
        row = list ? __ldg(list + i) : static_cast<int>(i);
        first = __ldg(row_ptr + row), last = __ldg(row_ptr + row + 1);
        if (last - first > kLong) {  // the chunk kernel adds it up
            if (lane == 0) y[row] = 0.0f;
            row = -1, first = last;
        }
    }
    // Four non-zeros a lane at a time: their loads and gathers in flight together (a row of a few non-zeros is
    // otherwise a chain of dependent loads, a latency each), added in the row's order.
    float sum = 0.0f;
    int k = first + lane;
    for (; k + 3 * V < last; k += 4 * V) {
        int c[4];
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) c[j] = __ldg(col_idx + k + j * V), v[j] = __ldg(values + k + j * V);
#pragma unroll
        for (int j = 0; j < 4; ++j) sum += v[j] * __ldg(x + c[j]);
    }
    for (; k < last; k += V) sum += __ldg(values + k) * __ldg(x + __ldg(col_idx + k));
#pragma unroll
    for (int o = V / 2; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o, V);  // every lane is here
    if (row >= 0 && lane == 0) y[row] = sum;
}

// One width, launched whole: a warp per unit of 32 / V rows in order, no loop and no plan to read (a uniform or
// stencil matrix: the rows kernel's fixed grid and its plan look-ups took 0.184 ms of the stencil on the H200's
// device clock where one thread per row took 0.142).
template <int V>
__global__ void __launch_bounds__(256) width_kernel(int rows, const int* __restrict__ row_ptr,
                                                    const int* __restrict__ col_idx, const float* __restrict__ values,
                                                    const float* __restrict__ x, float* __restrict__ y) {
    const long long i = static_cast<long long>(blockIdx.x) * (256 / V) + threadIdx.x / V;
    unit_rows<V>(i, rows, nullptr, row_ptr, col_idx, values, x, y);
}

template <int V>
__device__ void unit_of_bin(int u, int count, const int* list, const int* row_ptr, const int* col_idx,
                            const float* values, const float* x, float* y) {
    const long long i = static_cast<long long>(u) * (32 / V) + (threadIdx.x % 32) / V;
    unit_rows<V>(i, count, list, row_ptr, col_idx, values, x, y);
}

__global__ void rows_kernel(const Plan* __restrict__ plan, const int* __restrict__ list, int rows,
                            const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                            const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y) {
    const bool binned = plan->binned;
    const int warps = gridDim.x * blockDim.x / 32;
    const int total = binned ? plan->units[kBins] : plan->units[1];
    for (int u = (blockIdx.x * blockDim.x + threadIdx.x) / 32; u < total; u += warps) {  // the same u on a warp
        int b = plan->width_bin, first_unit = 0, count = rows;
        const int* l = nullptr;
        if (binned) {
            b = 0;
            while (u >= plan->units[b + 1]) ++b;
            first_unit = plan->units[b], count = plan->start[b + 1] - plan->start[b], l = list + plan->start[b];
        }
        const int k = u - first_unit;
        switch (b) {
            case 0: unit_of_bin<1>(k, count, l, row_ptr, col_idx, values, x, y); break;
            case 1: unit_of_bin<2>(k, count, l, row_ptr, col_idx, values, x, y); break;
            case 2: unit_of_bin<4>(k, count, l, row_ptr, col_idx, values, x, y); break;
            case 3: unit_of_bin<8>(k, count, l, row_ptr, col_idx, values, x, y); break;
            case 4: unit_of_bin<16>(k, count, l, row_ptr, col_idx, values, x, y); break;
            default: unit_of_bin<32>(k, count, l, row_ptr, col_idx, values, x, y); break;
        }
    }
}

__global__ void long_chunks(const Plan* __restrict__ plan, const Chunk* __restrict__ chunks,
                            const int* __restrict__ col_idx, const float* __restrict__ values,
                            const float* __restrict__ x, float* __restrict__ y) {
    const int lane = threadIdx.x % 32;
    const int warps = gridDim.x * blockDim.x / 32;
    const int n = plan->chunks;
    for (int c = (blockIdx.x * blockDim.x + threadIdx.x) / 32; c < n; c += warps) {
        const Chunk ch = chunks[c];
        float sum = 0.0f;
        for (int k = ch.first + lane; k < ch.last; k += 32) sum += __ldg(values + k) * __ldg(x + __ldg(col_idx + k));
#pragma unroll
        for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (lane == 0) atomicAdd(y + ch.row, sum);
    }
}

// The monotonic clock, in seconds (clock_gettime: <chrono> would add about 1.8 s to every compile of this file).
double seconds_now() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

int grid_blocks() {  // enough resident warps to fill the GPU
    static int blocks = 0;
    if (blocks == 0) {
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        blocks = std::max(1, sms) * 8;
    }
    return blocks;
}

// The plan setup() wrote last, as the host knows it, for the workspace it wrote it into: solve() launches by it
// (one width whole, the chunks' kernel only where there are chunks). A solve() on another workspace or matrix
// reads the plan on the device instead, as every launch once did.
struct Written {
    const void* workspace = nullptr;
    int rows = -1, nnz = -1;
    Plan plan{};
};
Written g_written;

template <int V>
void launch_width(int rows, const int* row_ptr, const int* col_idx, const float* values, const float* x, float* y) {
    const long long blocks = (static_cast<long long>(rows) + 256 / V - 1) / (256 / V);
    width_kernel<V><<<static_cast<unsigned>(blocks), 256>>>(rows, row_ptr, col_idx, values, x, y);
}

void run(int rows, int nnz, const int* row_ptr, const int* col_idx, const float* values, const void* workspace,
         const Layout& at, const float* x, float* y) {
    const char* ws = static_cast<const char*>(workspace);
    const Plan* plan = reinterpret_cast<const Plan*>(ws);
    const bool known = g_written.workspace == workspace && g_written.rows == rows && g_written.nnz == nnz;
    if (known && !g_written.plan.binned) {
        switch (g_written.plan.width_bin) {
            case 0: launch_width<1>(rows, row_ptr, col_idx, values, x, y); break;
            case 1: launch_width<2>(rows, row_ptr, col_idx, values, x, y); break;
            case 2: launch_width<4>(rows, row_ptr, col_idx, values, x, y); break;
            case 3: launch_width<8>(rows, row_ptr, col_idx, values, x, y); break;
            case 4: launch_width<16>(rows, row_ptr, col_idx, values, x, y); break;
            default: launch_width<32>(rows, row_ptr, col_idx, values, x, y); break;
        }
    } else {
        rows_kernel<<<grid_blocks(), 256>>>(plan, reinterpret_cast<const int*>(ws + at.list), rows, row_ptr, col_idx,
                                            values, x, y);
    }
    // A long row is possible: the chunks (none for most matrices; unknown here, the kernel reads how many).
    if (known ? g_written.plan.chunks > 0 : nnz > kLong)
        long_chunks<<<grid_blocks(), 256>>>(plan, reinterpret_cast<const Chunk*>(ws + at.chunks), col_idx, values,
                                            x, y);
}

int bin_of(int length, int f) {  // the V at or above length / f, as a bin
    int b = 0;
    while (b < kBins - 1 && (1 << b) * f < length) ++b;
    return b;
}

// A plan (and its row list, for bins) for the matrix with these row lengths.
Plan make_plan(const std::vector<int>& rp, int binned, int width_bin_or_f, std::vector<int>& list) {
    Plan p{};
    p.binned = binned;
    const int rows = static_cast<int>(rp.size()) - 1;
    if (!binned) {
        p.width_bin = width_bin_or_f;
        p.units[1] = static_cast<int>((static_cast<long long>(rows) + (32 >> p.width_bin) - 1) / (32 >> p.width_bin));
        return p;
    }
    int count[kBins] = {};
    for (int r = 0; r < rows; ++r) ++count[bin_of(rp[r + 1] - rp[r], width_bin_or_f)];
    for (int b = 0; b < kBins; ++b) {
        p.start[b + 1] = p.start[b] + count[b];
        p.units[b + 1] = p.units[b] + (count[b] + (32 >> b) - 1) / (32 >> b);
    }
    list.resize(static_cast<size_t>(rows));
    int fill[kBins];
    std::copy(p.start, p.start + kBins, fill);
    for (int r = 0; r < rows; ++r) list[fill[bin_of(rp[r + 1] - rp[r], width_bin_or_f)]++] = r;
    return p;
}

void write_plan(void* workspace, const Layout& at, int rows, int nnz, Plan p, int chunks, const std::vector<int>& list) {
    char* ws = static_cast<char*>(workspace);
    p.chunks = chunks;
    cudaMemcpy(ws, &p, sizeof p, cudaMemcpyHostToDevice);
    if (p.binned && !list.empty()) cudaMemcpy(ws + at.list, list.data(), list.size() * sizeof(int), cudaMemcpyHostToDevice);
    g_written = {workspace, rows, nnz, p};
}

}  // namespace

extern "C" size_t workspace_size(int rows, int cols, int nnz) { return Layout(rows, cols, nnz).total; }

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    const Layout at(rows, cols, nnz);
    char* ws = static_cast<char*>(workspace);
    // Once per matrix and untimed: the row lengths are read on the host, where cutting chunks and bins is simplest.
    std::vector<int> rp(static_cast<size_t>(std::max(rows, 0)) + 1, 0);
    cudaMemcpy(rp.data(), row_ptr, rp.size() * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<Chunk> chunks;
    int longest = 0;
    for (int r = 0; r < rows; ++r) {
        longest = std::max(longest, rp[r + 1] - rp[r]);
        if (rp[r + 1] - rp[r] > kLong)
            for (int k = rp[r]; k < rp[r + 1]; k += kChunk) chunks.push_back({r, k, std::min(k + kChunk, rp[r + 1])});
    }
    const int count = static_cast<int>(chunks.size());  // at most max_chunks(nnz): each chunk but a row's last is full
    if (count > 0) cudaMemcpy(ws + at.chunks, chunks.data(), chunks.size() * sizeof(Chunk), cudaMemcpyHostToDevice);

    // The rule: one width of about mean / 4 lanes for rows alike, else bins of f = 4.
    const double mean = rows > 0 ? static_cast<double>(nnz) / rows : 0;
    const bool alike = longest <= 2 * mean + 8;
    int best_binned = alike ? 0 : 1, best_arg = alike ? bin_of(static_cast<int>(mean + 0.5), 4) : 4;
    std::vector<int> list;
    if (rows > 0 && nnz > kTuneNnz) {
        // Timed: each candidate twice after a first run, on a scratch x and y; the fastest kept. The rule's first,
        // and no more after kTuneBudget seconds (a GPU times them all in a fraction of that; CPU emulation would
        // not, and its times mean nothing).
        float* x = reinterpret_cast<float*>(ws + at.x);
        float* y = reinterpret_cast<float*>(ws + at.y);
        cudaMemset(x, 0, static_cast<size_t>(cols) * sizeof(float));
        cudaEvent_t begin, end;
        cudaEventCreate(&begin);
        cudaEventCreate(&end);
        std::vector<std::pair<int, int>> candidates = {{best_binned, best_arg}};
        for (int arg = 0; arg < kBins; ++arg) candidates.push_back({0, arg});
        // Bins only where rows differ: rows alike fall into one or two bins, which is one width read through the
        // list, and each binned candidate costs a pass over the rows and the list's copy (on the H200 setup()
        // took 0.47 s of the stencil's lay-out, 0.32 s of uniform-2^22's, with them).
        if (!alike)
            for (int f : {2, 4, 8}) candidates.push_back({1, f});
        candidates.erase(std::remove(candidates.begin() + 1, candidates.end(), candidates.front()), candidates.end());
        const double started = seconds_now();
        float best_ms = 1e30f;
        for (const auto& [binned, arg] : candidates) {
            if (seconds_now() - started > kTuneBudget) break;
            write_plan(workspace, at, rows, nnz, make_plan(rp, binned, arg, list), count, list);
            run(rows, nnz, row_ptr, col_idx, values, workspace, at, x, y);
            float ms = 1e30f;
            for (int rep = 0; rep < 2; ++rep) {
                cudaEventRecord(begin);
                run(rows, nnz, row_ptr, col_idx, values, workspace, at, x, y);
                cudaEventRecord(end);
                cudaEventSynchronize(end);
                float t = 0;
                cudaEventElapsedTime(&t, begin, end);
                ms = std::min(ms, t);
            }
            if (ms < best_ms) best_ms = ms, best_binned = binned, best_arg = arg;
        }
        cudaEventDestroy(begin);
        cudaEventDestroy(end);
    }
    write_plan(workspace, at, rows, nnz, make_plan(rp, best_binned, best_arg, list), count, list);
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    run(rows, nnz, row_ptr, col_idx, values, workspace, Layout(rows, cols, nnz), x, y);
}
