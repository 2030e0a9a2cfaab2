// spmv fast reference: CSR kept as it is, read by groups of V lanes per row (V from 1 to 32), or a packed copy of
// the matrix whose loads are whole 128-byte lines and whose most used x entries sit in shared memory (a power-law
// matrix's), chosen per matrix in setup(). Sets the fast end of the score scale.
//   - Over the CSR (a Plan, in the workspace): one width (every row V lanes, rows in order: a uniform or stencil
//     matrix, whose rows are alike) launched whole, or bins (each row the V at or above its length / f, the rows
//     listed by bin) over a fixed grid; rows longer than kLong cut into chunks of kChunk non-zeros, a warp per chunk
//     adding its sum into y[row] (zeroed by the rows kernel) with one atomicAdd.
//   - Packed (R-MAT's plan). The layout: units of 32 lanes x I steps (I <= 8); a unit holds 32 / V rows of V lanes
//     (V the power of two at or above length / 8; the rows sorted by V and I, so a unit's rows need the same I), a
//     row longer than 256 is cut into units of one warp of 256 non-zeros each. Step j of lane l is at the unit's
//     start + 32 j + l in a column and a value array: every load of them is one 128-byte line for the warp, where a
//     lane per short row of the CSR touches a line per lane. A unit has one 32-bit word (I, V, flags) and its rows'
//     ids (one id when they are consecutive). On rmat-21: 180k units, 34.9M slots (3.9% padding; a pad adds a zero).
//   - The x side: R-MAT's columns are as skewed as its rows (on rmat-21 the 49152 most used columns take 67% of the
//     2^25 reads of x), and a read of x is a 32-byte L2 sector for 4 useful bytes. So the H most used entries (H from
//     the column counts: where the reads they save most outweigh a gather each and each block's copy, up to kHotMax
//     = 192 KiB) are gathered each call by a small prep kernel into a contiguous array, which each block copies into
//     shared memory with 16-byte loads; in the copy a hot column is ~(its place in the list), read from shared
//     memory, the others from x (either one generic load, or a shared load and a read-only global load: tuned).
//     One block of 1024 threads per SM (the list takes most of its shared memory; 64 registers a thread).
//   - Work: the units are cut in setup() into ranges of equal estimated cost (32 per slot, 8 per row, 32 per unit),
//     8 per warp, dealt round: warp w of W does ranges w, w + W, w + 2 W, ..., one from each eighth of the unit
//     order (which is by row class), so every warp gets the same mix of classes whatever each class really costs;
//     no atomics, no counters. The next range's record and first unit words are loaded a unit ahead, so none of it
//     waits. A long row's units run in order in a range with the sum carried in registers; a row split between
//     ranges adds each range's piece into y with atomicAdd, zeroed before by prep. While a unit's x reads are in
//     flight the warp already loads the next unit's columns, values and row ids. The copy's streams are read with
//     evict-first loads (x stays in L2). With many empty rows (over 1/16) prep zeroes y whole (coalesced) and the
//     empty rows get no units. Two plain launches, prep then the packed kernel.
//     A call moves, on rmat-21: 279 MB of columns and values, 4.5 MB of row ids, y (8 MB zeroed, then 1.06M rows
//     written a 4-byte store each), the x entries outside the list (about 11M sector reads from L2, x itself 8 MB
//     from HBM once), and the list's copy (192 KiB to each of 132 SMs from L2): about 302 MB from or to HBM.
//   - setup() (untimed, once per matrix) reads the row pointers, builds the chunks, the packed copy (for a skewed
//     matrix, whose longest row is over 32 x the mean + 64: its units laid out on the host from the row lengths, its
//     slots filled from the CSR on the GPU, the columns' uses counted there) and the plans. Above kTuneNnz
//     non-zeros it times the candidates (packed with the list, half of it, either loads, and none; each width;
//     bins for three f where rows differ) on this GPU with a scratch x and y in the workspace, and keeps the
//     fastest; the rule's plan is timed first and the timing stops after kTuneBudget seconds, or after a first run
//     over 50 ms (no GPU's: CPU emulation, whose times mean nothing). Below kTuneNnz, the rule: one width of about
//     mean / 4 lanes for rows alike, else packed where it was built, else bins of f = 4. solve() launches by the plan
//     setup() last wrote, kept on the host with the workspace it went to (another workspace's plan is read from the
//     device first).
// Measured on the H200 (`judge bench spmv`, device time, with the packed copy built for uniform-2^22
// too): rmat-21 148 us against cuSPARSE's 256 us (1.73x; the CSR plans alone took 365 us), uniform-2^22 286 against
// 277 us, stencil-3000x3000 144 against 182 us.
#include <cuda_runtime.h>
#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

namespace {

constexpr int kLong = 4096;            // rows longer than this are split
constexpr int kChunk = 2048;           // non-zeros per chunk of a long row
constexpr int kBins = 6;               // V = 1, 2, 4, 8, 16, 32
constexpr long long kTuneNnz = 1 << 22;  // above this many non-zeros the plan is timed, not guessed
constexpr double kTuneBudget = 1.5;     // seconds of setup() for the timing, at most (the rule's plan always)
constexpr size_t kAlign = 256;

// The packed copy.
constexpr int kSteps = 8;               // steps (non-zeros per lane) of a unit, at most
constexpr int kPackRow = 32 * kSteps;   // rows longer than this are cut into units of one warp
constexpr int kPackThreads = 1024;      // one block per SM
constexpr int kHotMax = 49152;          // x entries in shared memory, at most (192 KiB)
constexpr int kMaxBlocks = 512;
constexpr int kRangesPerWarp = 8;       // ranges of units taken by the warps in turn, for each warp
constexpr int kMaxRanges = kMaxBlocks * (kPackThreads / 32) * kRangesPerWarp;
constexpr int kPrev = 1 << 7;           // info: this unit continues the row of the unit before it
constexpr int kNext = 1 << 8;           //       the row goes on in the next unit
constexpr int kConsec = 1 << 9;         //       the unit's rows are consecutive: one id, the first

struct Chunk {
    int row, first, last;
};

struct Plan {
    int binned;             // 0: one width for every row, rows in order; 1: the rows by bin, from the list
    int width_bin;          // one width: its bin (V = 1 << width_bin)
    int start[kBins + 1];   // bins: bin b's rows are list[start[b] .. start[b + 1])
    int units[kBins + 1];   // warp units before bin b (one width: units[1] of them, all its)
    int chunks;             // long-row chunks
    int packed;             // 1: the packed copy (binned and width_bin unused)
    int hot;                // packed: x entries in shared memory
    int blocks;             // packed: the grid
    int ranges;             // packed: ranges of units
    int split;              // packed: rows split between ranges
    int split_loads;        // packed: x read by a shared and a global load, not one generic load
    int zero_y;             // packed: y zeroed first (the empty rows have no units, split rows need no zeroing)
};

// A range of packed units: the first unit, its slot and row-id offsets.
struct Range {
    int unit, slot, rid, pad;
};

size_t up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
size_t max_chunks(int nnz) { return static_cast<size_t>(nnz) / kLong + static_cast<size_t>(nnz) / kChunk + 1; }
// Bounds of the packed copy for any matrix of these sizes (setup() checks them, and skips the copy past them).
size_t max_slots(int nnz) { return static_cast<size_t>(nnz) + static_cast<size_t>(nnz) / 2 + 16384; }
size_t max_units(int rows, int nnz) {
    return static_cast<size_t>(rows) / 32 + static_cast<size_t>(nnz) / 16 + 1024;
}
size_t max_rids(int rows, int nnz) { return static_cast<size_t>(rows) + static_cast<size_t>(nnz) / 64 + 4096; }
size_t max_ranges(int rows, int nnz) { return std::min<size_t>(kMaxRanges, max_units(rows, nnz)); }

// The workspace: the plan, the row list, the chunks, a scratch x and y for timing the candidates, then the packed
// copy: unit words, row ids, columns, values, the hot list, the ranges, the rows split between ranges.
struct Layout {
    size_t list, chunks, x, y, info, rid, col, val, hot, ranges, split, total;
    Layout(int rows, int cols, int nnz) {
        list = up(sizeof(Plan));
        chunks = list + up(static_cast<size_t>(rows) * sizeof(int));
        x = chunks + up(max_chunks(nnz) * sizeof(Chunk));
        y = x + up(static_cast<size_t>(cols) * sizeof(float));
        info = y + up(static_cast<size_t>(rows) * sizeof(float));
        rid = info + up(max_units(rows, nnz) * sizeof(int));
        col = rid + up(max_rids(rows, nnz) * sizeof(int));
        val = col + up(max_slots(nnz) * sizeof(int));
        hot = val + up(max_slots(nnz) * sizeof(float));
        ranges = hot + up(std::min(kHotMax, cols) * sizeof(int));
        split = ranges + up((max_ranges(rows, nnz) + 1) * sizeof(Range));
        total = split + up(max_ranges(rows, nnz) * sizeof(int));
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

// The packed copy's unit: this lane's column and value at each of the unit's I steps (evict-first: read once).
__device__ __forceinline__ void load_unit(int info, int slot, int lane, const int* __restrict__ col,
                                          const float* __restrict__ val, int (&c)[kSteps], float (&a)[kSteps]) {
    const int steps = info & 15;
#pragma unroll
    for (int j = 0; j < kSteps; ++j) {
        c[j] = 0, a[j] = 0.0f;
        if (j < steps) c[j] = __ldcs(col + slot + 32 * j + lane), a[j] = __ldcs(val + slot + 32 * j + lane);
    }
}

// The row of this lane's group in a packed unit (-1: none), loaded with the unit's columns and values.
__device__ __forceinline__ int unit_row(int info, int rb, int lane, const int* __restrict__ rid) {
    const int g = lane >> ((info >> 4) & 7);
    if (g >= ((info >> 10) & 63)) return -1;
    return (info & kConsec) ? __ldcs(rid + rb) + g : __ldcs(rid + rb + g);
}

// Before the packed kernel: the hot list's x entries gathered into a contiguous array (each block then copies it
// whole), and y zeroed, whole or at the rows split between ranges (their pieces are added into it).

__global__ void __launch_bounds__(256) prep(const int* __restrict__ hot, int hot_count, const float* __restrict__ x,
                                            float* __restrict__ xh, const int* __restrict__ split, int split_count,
                                            int zero_rows, float* __restrict__ y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < hot_count) xh[i] = __ldg(x + __ldg(hot + i));
    if (i < split_count) y[__ldg(split + i)] = 0.0f;
    // All of y zeroed (zero_rows = rows: a matrix with many empty rows, which then have no units), 16 bytes a thread.
    if (4 * i + 3 < zero_rows)
        reinterpret_cast<float4*>(y)[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    else if (4 * i < zero_rows)
        for (int r = 4 * i; r < zero_rows; ++r) y[r] = 0.0f;
}

template <bool kSplit>
__global__ void __launch_bounds__(kPackThreads, 1)
    packed_kernel(const int* __restrict__ info, const int* __restrict__ rid, const int* __restrict__ col,
                  const float* __restrict__ val, const float* xh, int hot_count, const Range* __restrict__ ranges,
                  int range_count, const float* __restrict__ x, float* __restrict__ y) {
    extern __shared__ float4 s_x4[];
    float* const s_x = reinterpret_cast<float*>(s_x4);
    const int lane = threadIdx.x % 32;
    // A range's record, one field a lane (0 unit, 1 slot, 2 row id, 3 the end: the next range's first unit),
    // handed round by shuffles.
    auto record = [&](int r) {
        return r < range_count && lane < 4 ? __ldg(reinterpret_cast<const int*>(ranges + r + (lane == 3)) + lane % 3)
                                           : 0;
    };
    // Ranges: warp w's are w, w + W, w + 2 W, ... (W warps in all: each warp's ranges spread over the whole matrix);
    // the next one made ready a step after each unit: its record, then its first 32 unit words, so that no step
    // waits on the one before (but at the range's end, whatever is not there yet is waited for).
    auto warps = [] { return static_cast<int>(gridDim.x) * (kPackThreads / 32); };  // read again, not held
    const int t = blockIdx.x * (kPackThreads / 32) + threadIdx.x / 32;
    bool running = t < range_count;
    const int cur0 = record(t);
    int ticket = t + warps();     // the next range
    int stage = running ? 0 : 3;  // the next range: 0 known, 1 record asked, 2 words asked, 3 none
    int nxt = 0, next_words = 0;
    auto advance = [&] {
        if (stage == 0) {
            if (ticket < range_count)
                nxt = record(ticket), stage = 1;
            else
                stage = 3;
        } else if (stage == 1) {
            const int first = __shfl_sync(0xffffffffu, nxt, 0), end = __shfl_sync(0xffffffffu, nxt, 3);
            next_words = first + lane < end ? __ldcs(info + first + lane) : 0;
            stage = 2;
        }
    };
    int cur_unit = __shfl_sync(0xffffffffu, cur0, 0), cur_end = __shfl_sync(0xffffffffu, cur0, 3);
    int u = cur_unit, slot = __shfl_sync(0xffffffffu, cur0, 1), rb = __shfl_sync(0xffffffffu, cur0, 2);
    // The unit words, 32 at a time, one a lane, handed round by shuffles.
    int batch = u;
    int words = batch + lane < cur_end ? __ldcs(info + batch + lane) : 0;
    int inf = __shfl_sync(0xffffffffu, words, 0);
    int c[kSteps];
    float a[kSteps];
    load_unit(running ? inf : 0, slot, lane, col, val, c, a);
    int row = unit_row(running ? inf : 0, rb, lane, rid);
    // Then the hot entries (a multiple of 4: whole 16-byte loads), and a zero after them for the pad steps.
#pragma unroll 4
    for (int i = threadIdx.x; i < hot_count / 4; i += blockDim.x)
        s_x4[i] = __ldcg(reinterpret_cast<const float4*>(xh) + i);
    if (threadIdx.x == 0) s_x[hot_count] = 0.0f;
    __syncthreads();
    float carry = 0.0f;
    bool mid = false;  // the current run of a long row began in the range before
    while (running) {
        const int steps = inf & 15, lv = (inf >> 4) & 7, nvalid = (inf >> 10) & 63;
        // The next unit (of this range, or the first of the next), its loads in flight while this unit's x reads are.
        int next_u = u + 1, next_slot = slot + 32 * steps, next_rb = rb + ((inf & kConsec) ? 1 : nvalid);
        const bool last_of_range = next_u >= cur_end;
        if (last_of_range)
            while (stage < 2) advance();
        const bool more = !last_of_range || stage == 2;
        int next_inf = 0;
        if (!last_of_range) {
            if (next_u - batch == 32) {
                batch = next_u;
                words = batch + lane < cur_end ? __ldcs(info + batch + lane) : 0;
            }
            next_inf = __shfl_sync(0xffffffffu, words, next_u - batch);
        } else if (more) {
            next_u = __shfl_sync(0xffffffffu, nxt, 0), next_slot = __shfl_sync(0xffffffffu, nxt, 1);
            next_rb = __shfl_sync(0xffffffffu, nxt, 2), batch = next_u, words = next_words;
            next_inf = __shfl_sync(0xffffffffu, words, 0);
        }
        int nc[kSteps];
        float na[kSteps];
        load_unit(more ? next_inf : 0, next_slot, lane, col, val, nc, na);
        const int next_row = unit_row(more ? next_inf : 0, next_rb, lane, rid);
        // x at each step, from shared memory for a hot column, from x for the rest, with no branch on the lane's
        // column and all the unit's loads issued before the first product waits on one: one generic load, or
        // (kSplit) a shared load (a cold lane reads the zero) and a read-only global load (a hot lane reads x[0]).
        float xv[kSteps];
#pragma unroll
        for (int j = 0; j < kSteps; ++j) {
            xv[j] = 0.0f;
            if (j < steps) {
                if (kSplit) {
                    const float h = s_x[c[j] < 0 ? ~c[j] : hot_count], g = __ldg(x + (c[j] < 0 ? 0 : c[j]));
                    xv[j] = c[j] < 0 ? h : g;
                } else {
                    xv[j] = *(c[j] < 0 ? s_x + ~c[j] : x + c[j]);
                }
            }
        }
        float sum = 0.0f;
#pragma unroll
        for (int j = 0; j < kSteps; ++j)
            if (j < steps) sum = fmaf(a[j], xv[j], sum);
#pragma unroll
        for (int o = 1; o < 32; o *= 2)
            if (o < (1 << lv)) sum += __shfl_xor_sync(0xffffffffu, sum, o);
        if (lv < 5) {
            if ((lane & ((1 << lv) - 1)) == 0 && row >= 0) y[row] = sum;
        } else {  // a warp's row, or a part of a long row
            const bool prev = inf & kPrev, next = inf & kNext;
            if (u == cur_unit || !prev) carry = 0.0f, mid = prev;
            const float total = carry + sum;
            if (next && !last_of_range) {
                carry = total;
            } else if (lane == 0) {  // the run ends: the whole row, or a piece of a row split between ranges
                if (mid || next)
                    atomicAdd(y + row, total);  // zeroed by the prep kernel
                else
                    y[row] = total;
            }
        }
        if (last_of_range) {  // on to the next range (none: the end), and ask for the one after
            running = more;
            cur_unit = next_u, cur_end = __shfl_sync(0xffffffffu, nxt, 3);
            ticket += warps();
            stage = more ? 0 : 3;
        } else {
            advance();  // a unit after the step before it was asked for
        }
        u = next_u, slot = next_slot, rb = next_rb, inf = next_inf, row = next_row;
#pragma unroll
        for (int j = 0; j < kSteps; ++j) c[j] = nc[j], a[j] = na[j];
    }
}

// Building the packed copy on the GPU (setup() only): the columns' uses, the hot list's places, and each slot's
// column and value copied from the CSR. The host lays out only the units: copying the CSR out, filling 280 MB of
// slots there and copying them back (three times, once per hot list timed) took 1.4-1.7 s of rmat-21's setup() on
// the 2-core VM, most of it faulting in fresh pages; on the H200 rmat-21's lay-out (both runners' setup(), its
// inputs) went from about 3 s to 0.57-0.76 s.
__global__ void count_uses(const int* __restrict__ col_idx, int nnz, int* __restrict__ uses) {
    for (long long k = blockIdx.x * 256LL + threadIdx.x; k < nnz; k += 256LL * gridDim.x)
        atomicAdd(uses + col_idx[k], 1);
}

__global__ void mark_hot(const int* __restrict__ hot, int h, int* __restrict__ place) {
    const int i = blockIdx.x * 256 + threadIdx.x;
    if (i < h) place[hot[i]] = i;
}

// A warp per unit: lane l's slot at step j holds element j V + l % V of the unit's row l / V (of the long row's
// part from first_of[u] for a unit of one warp), its column as the packed kernel reads it (~place for a hot one,
// ~h for a pad, with value 0).
__global__ void pack_fill(const int* __restrict__ info, const int* __restrict__ slot_of,
                          const int* __restrict__ first_of, const int* __restrict__ rid_of, const int* __restrict__ rid,
                          int units, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                          const float* __restrict__ values, const int* __restrict__ place, int h,
                          int* __restrict__ col, float* __restrict__ val) {
    const int u = (blockIdx.x * 256 + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (u >= units) return;
    const int inf = info[u], steps = inf & 15, lv = (inf >> 4) & 7, nvalid = (inf >> 10) & 63;
    const int g = lane >> lv;
    int first = 0, last = 0;
    if (g < nvalid && steps > 0) {
        const int r = (inf & kConsec) ? rid[rid_of[u]] + g : rid[rid_of[u] + g];
        first = lv == 5 ? first_of[u] : row_ptr[r];
        last = lv == 5 ? min(row_ptr[r + 1], first + kPackRow) : row_ptr[r + 1];
    }
    for (int j = 0; j < steps; ++j) {
        const long long s = static_cast<long long>(slot_of[u]) + 32 * j + lane;
        const int k = first + (j << lv) + (lane & ((1 << lv) - 1));
        int c = ~h;
        float a = 0.0f;
        if (k < last) {
            c = col_idx[k], a = values[k];
            if (place[c] >= 0) c = ~place[c];
        }
        col[s] = c, val[s] = a;
    }
}

// The monotonic clock, in seconds (clock_gettime: <chrono> would add about 1.8 s to every compile of this file).
double seconds_now() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

int sm_count() {
    static int sms = 0;
    if (sms == 0) {
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        sms = std::max(1, std::min(sms, kMaxBlocks));
    }
    return sms;
}

int grid_blocks() { return sm_count() * 8; }  // enough resident warps to fill the GPU

// The packed kernel's scratch: the hot entries of x, gathered each call. A module array rather than a cudaMalloc
// kept for the process's life, which --sanitize's leak check would call a leak (196,608 bytes, never freed).
__device__ float g_xh_dev[kHotMax];
float* g_xh = nullptr;  // its device address, looked up once in setup()

// The plan setup() wrote last, as the host knows it, for the workspace it wrote it into: solve() launches by it
// (one width whole, the chunks' kernel only where there are chunks). A solve() on another workspace reads the plan
// from the device first.
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
    if (!(g_written.workspace == workspace && g_written.rows == rows && g_written.nnz == nnz)) {
        Plan p{};
        cudaMemcpy(&p, plan, sizeof p, cudaMemcpyDeviceToHost);
        g_written = {workspace, rows, nnz, p};
    }
    const Plan& p = g_written.plan;
    if (p.packed) {
        const int* info = reinterpret_cast<const int*>(ws + at.info);
        const int* rid = reinterpret_cast<const int*>(ws + at.rid);
        const int* col = reinterpret_cast<const int*>(ws + at.col);
        const float* val = reinterpret_cast<const float*>(ws + at.val);
        const Range* ranges = reinterpret_cast<const Range*>(ws + at.ranges);
        const float* xh = g_xh;
        const size_t smem = (static_cast<size_t>(p.hot) + 1) * sizeof(float);
        const int zero_rows = p.zero_y ? rows : 0, split = p.zero_y ? 0 : p.split;
        if (p.hot > 0 || split > 0 || zero_rows > 0) {
            const int threads = std::max({p.hot, split, (zero_rows + 3) / 4});
            prep<<<(threads + 255) / 256, 256>>>(reinterpret_cast<const int*>(ws + at.hot), p.hot, x, g_xh,
                                                 reinterpret_cast<const int*>(ws + at.split), split, zero_rows, y);
        }
        if (p.split_loads)
            packed_kernel<true><<<p.blocks, kPackThreads, smem>>>(info, rid, col, val, xh, p.hot, ranges, p.ranges,
                                                                  x, y);
        else
            packed_kernel<false><<<p.blocks, kPackThreads, smem>>>(info, rid, col, val, xh, p.hot, ranges, p.ranges,
                                                                   x, y);
        return;
    }
    if (!p.binned) {
        switch (p.width_bin) {
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
    if (p.chunks > 0)
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
    if (!p.packed && p.binned && !list.empty())
        cudaMemcpy(ws + at.list, list.data(), list.size() * sizeof(int), cudaMemcpyHostToDevice);
    g_written = {workspace, rows, nnz, p};
}

// The packed copy's units, laid out on the host from the row lengths (the unit words, the row ids, each unit's first
// slot, row-id offset and, for a unit of one warp, first non-zero); its slots are filled on the GPU (pack_fill).
// scratch: device ints, cols for the columns' uses (then the hot list's places), then max_units + 1 each for the
// units' first slots, first non-zeros and row-id offsets.
struct Packed {
    std::vector<int> info, rid, slot_of, rid_of;
    std::vector<int> first_of;     // a unit of one warp: its first non-zero (a long row's part), else unused
    std::vector<int> order;        // columns by use, most used first (the hot candidates)
    std::vector<long long> cover;  // cover[k]: reads of x at the k most used columns
    int cols = 0;
    // In the scratch: the hot list's places (cols), the units' first slots, first non-zeros and row-id offsets.
    int* place = nullptr;
    int *slot_of_d = nullptr, *first_of_d = nullptr, *rid_of_d = nullptr;
    bool ok = false;
    bool zero_y = false;  // many empty rows: y zeroed whole before the packed kernel, and the empty rows left out
};

size_t scratch_ints(int rows, int cols, int nnz) { return static_cast<size_t>(cols) + 3 * (max_units(rows, nnz) + 1); }

Packed build_packed(int rows, int cols, int nnz, const std::vector<int>& rp, const int* col_idx, int* scratch) {
    Packed pk;
    pk.cols = cols;
    // Each row's key: 0 for a long row, else 1 + (5 - log2 V) * kSteps + (kSteps - I) for V's lanes and I steps
    // (wide and long first), the empty rows last.
    const int kKeys = 2 + 6 * kSteps;
    auto key_of = [&](int len) {
        if (len == 0) return kKeys - 1;
        if (len > kPackRow) return 0;
        int lv = 0;
        while ((kSteps << lv) < len) ++lv;
        const int steps = (len + (1 << lv) - 1) >> lv;
        return 1 + (5 - lv) * kSteps + (kSteps - steps);
    };
    std::vector<int> start(kKeys + 1, 0);
    for (int r = 0; r < rows; ++r) ++start[key_of(rp[r + 1] - rp[r]) + 1];
    for (int k = 0; k < kKeys; ++k) start[k + 1] += start[k];
    std::vector<int> sorted(static_cast<size_t>(rows));
    {
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (int r = 0; r < rows; ++r) sorted[fill[key_of(rp[r + 1] - rp[r])]++] = r;
    }
    long long slots = 0;
    auto add_unit = [&](int steps, int lv, int flags, int nvalid, int first) {
        pk.slot_of.push_back(static_cast<int>(std::min<long long>(slots, 1LL << 30)));  // checked below
        pk.rid_of.push_back(static_cast<int>(pk.rid.size()));
        pk.first_of.push_back(first);
        pk.info.push_back(steps | (lv << 4) | flags | (nvalid << 10));
        slots += 32LL * steps;
    };
    // Many empty rows (R-MAT's half): y zeroed whole (coalesced) instead of a scattered store each.
    pk.zero_y = start[kKeys] - start[kKeys - 1] > rows / 16;
    for (int k = 0; k < (pk.zero_y ? kKeys - 1 : kKeys); ++k) {
        const int* r0 = sorted.data() + start[k];
        const int n = start[k + 1] - start[k];
        if (k == 0) {
            for (int i = 0; i < n; ++i) {
                const int r = r0[i], len = rp[r + 1] - rp[r];
                for (int first = 0; first < len; first += kPackRow) {
                    const int part = std::min(kPackRow, len - first);
                    add_unit((part + 31) / 32, 5, (first > 0 ? kPrev : 0) | (first + part < len ? kNext : 0), 1,
                             rp[r] + first);
                    pk.rid.push_back(r);
                }
            }
            continue;
        }
        const int lv = k == kKeys - 1 ? 0 : 5 - (k - 1) / kSteps;
        const int steps = k == kKeys - 1 ? 0 : kSteps - (k - 1) % kSteps;
        const int per = 32 >> lv;
        for (int i = 0; i < n; i += per) {
            const int m = std::min(per, n - i);
            bool consec = true;
            for (int g = 1; g < m; ++g) consec = consec && r0[i + g] == r0[i] + g;
            add_unit(steps, lv, consec ? kConsec : 0, m, rp[r0[i]]);
            if (consec)
                pk.rid.push_back(r0[i]);
            else
                for (int g = 0; g < m; ++g) pk.rid.push_back(r0[i + g]);
        }
    }
    pk.slot_of.push_back(static_cast<int>(std::min<long long>(slots, 1LL << 30)));
    pk.rid_of.push_back(static_cast<int>(pk.rid.size()));
    if (static_cast<size_t>(slots) > max_slots(nnz) || pk.info.size() > max_units(rows, nnz) ||
        pk.rid.size() > max_rids(rows, nnz))
        return pk;  // not ok (cannot happen by the bounds' arithmetic)
    const size_t mu = max_units(rows, nnz) + 1, units = pk.info.size();
    pk.place = scratch, pk.slot_of_d = scratch + cols;
    pk.first_of_d = pk.slot_of_d + mu, pk.rid_of_d = pk.first_of_d + mu;
    cudaMemcpy(pk.slot_of_d, pk.slot_of.data(), (units + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(pk.first_of_d, pk.first_of.data(), units * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(pk.rid_of_d, pk.rid_of.data(), (units + 1) * sizeof(int), cudaMemcpyHostToDevice);
    // The columns by use, counted on the GPU.
    std::vector<int> uses(static_cast<size_t>(cols), 0);
    if (nnz > 0 && cols > 0) {
        cudaMemset(pk.place, 0, static_cast<size_t>(cols) * sizeof(int));  // the uses first, then the places
        count_uses<<<static_cast<unsigned>(std::min<long long>((nnz + 255LL) / 256, 4096)), 256>>>(col_idx, nnz,
                                                                                                   pk.place);
        cudaMemcpy(uses.data(), pk.place, uses.size() * sizeof(int), cudaMemcpyDeviceToHost);
    }
    std::vector<int> used;
    for (int c = 0; c < cols; ++c)
        if (uses[c] > 0) used.push_back(c);
    const size_t top = std::min<size_t>(used.size(), kHotMax);
    std::partial_sort(used.begin(), used.begin() + top, used.end(),
                      [&](int p, int q) { return uses[p] != uses[q] ? uses[p] > uses[q] : p < q; });
    pk.order.assign(used.begin(), used.begin() + top);
    pk.cover.assign(top + 1, 0);
    for (size_t k = 0; k < top; ++k) pk.cover[k + 1] = pk.cover[k] + uses[pk.order[k]];
    pk.ok = true;
    return pk;
}

// The hot list's length: where the reads of x it saves most outweigh its cost, a gather each entry and each
// block's copy of the list (8 entries a 32-byte sector).
int pick_hot(const Packed& pk, int blocks) {
    int best = 0;
    long long gain = 0;
    for (size_t h = 256; h < pk.cover.size(); h += 256) {
        const long long g = pk.cover[h] - static_cast<long long>(h) * (8 + blocks) / 8;
        if (g > gain) gain = g, best = static_cast<int>(h);
    }
    return best;
}

// Writes the packed copy with a hot list of h entries, and the ranges for this grid; the plan.
Plan write_packed(void* workspace, const Layout& at, const Packed& pk, int h, int blocks, bool first,
                  const int* row_ptr, const int* col_idx, const float* values) {
    char* ws = static_cast<char*>(workspace);
    const int units = static_cast<int>(pk.info.size());
    if (first) {  // the unit words and row ids do not depend on the hot list
        cudaMemcpy(ws + at.info, pk.info.data(), pk.info.size() * sizeof(int), cudaMemcpyHostToDevice);
        if (!pk.rid.empty())
            cudaMemcpy(ws + at.rid, pk.rid.data(), pk.rid.size() * sizeof(int), cudaMemcpyHostToDevice);
    }
    // The slots: each column ~(place in the hot list) for a hot one, ~h (the zero) for a pad, the column otherwise.
    if (h > 0)
        cudaMemcpy(ws + at.hot, pk.order.data(), static_cast<size_t>(h) * sizeof(int), cudaMemcpyHostToDevice);
    if (units > 0) {
        cudaMemset(pk.place, 0xff, static_cast<size_t>(pk.cols) * sizeof(int));  // -1: not hot
        if (h > 0) mark_hot<<<(h + 255) / 256, 256>>>(reinterpret_cast<const int*>(ws + at.hot), h, pk.place);
        pack_fill<<<static_cast<unsigned>((units + 7) / 8), 256>>>(
            reinterpret_cast<const int*>(ws + at.info), pk.slot_of_d, pk.first_of_d, pk.rid_of_d,
            reinterpret_cast<const int*>(ws + at.rid), units, row_ptr, col_idx, values, pk.place, h,
            reinterpret_cast<int*>(ws + at.col), reinterpret_cast<float*>(ws + at.val));
    }
    // The ranges: equal cost (a slot 1, a row 8, a unit 32), each at least one unit.
    const size_t want = static_cast<size_t>(blocks) * (kPackThreads / 32) * kRangesPerWarp;
    const int nr = static_cast<int>(std::min<size_t>(want, static_cast<size_t>(units)));
    std::vector<long long> cost(static_cast<size_t>(units) + 1, 0);
    for (int u = 0; u < units; ++u) {
        const int inf = pk.info[u];
        cost[u + 1] = cost[u] + 32LL * (inf & 15) + 8LL * ((inf >> 10) & 63) + 32;
    }
    std::vector<Range> rec(static_cast<size_t>(nr) + 1, Range{0, 0, 0, 0});  // no units: no ranges
    int u = 0;
    for (int r = 0; r <= nr && nr > 0; ++r) {
        const long long target = cost[units] * r / nr;
        while (u < units && cost[u] < target) ++u;
        if (r > 0) u = std::max(u, rec[r - 1].unit + 1);
        u = std::min(u, units - (nr - r));
        rec[r] = {u, pk.slot_of[u], pk.rid_of[u], 0};
    }
    // The rows split between ranges (a range that begins inside a row's run of units), each once.
    std::vector<int> split;
    for (int r = 0; r < nr; ++r) {
        const int first = rec[r].unit;
        if ((pk.info[first] & kPrev) && (split.empty() || split.back() != pk.rid[pk.rid_of[first]]))
            split.push_back(pk.rid[pk.rid_of[first]]);
    }
    if (first) {  // the rest does not depend on the hot list
        cudaMemcpy(ws + at.ranges, rec.data(), rec.size() * sizeof(Range), cudaMemcpyHostToDevice);
        if (!split.empty())
            cudaMemcpy(ws + at.split, split.data(), split.size() * sizeof(int), cudaMemcpyHostToDevice);
    }
    Plan p{};
    p.packed = 1, p.hot = h, p.blocks = blocks, p.ranges = nr, p.split = static_cast<int>(split.size());
    p.zero_y = pk.zero_y;
    return p;
}

}  // namespace

extern "C" size_t workspace_size(int rows, int cols, int nnz) { return Layout(rows, cols, nnz).total; }

extern "C" void setup(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      void* workspace) {
    const Layout at(rows, cols, nnz);
    char* ws = static_cast<char*>(workspace);
    if (!g_xh) {
        cudaGetSymbolAddress(reinterpret_cast<void**>(&g_xh), g_xh_dev);
        for (auto kernel : {packed_kernel<false>, packed_kernel<true>})
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>((kHotMax + 1) * sizeof(float)));
    }
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

    // The rule: one width of about mean / 4 lanes for rows alike, else the packed copy.
    const double mean = rows > 0 ? static_cast<double>(nnz) / rows : 0;
    const bool alike = longest <= 2 * mean + 8;
    const bool tune = rows > 0 && nnz > kTuneNnz;
    const int blocks = sm_count();
    Packed pk;
    // The packed copy only for a skewed matrix (a power law's hubs: its longest row far above the mean): on the
    // H200 it gained nothing on the uniform and stencil matrices (1.00x and 1.04x the CSR plans' time,
    // judged side by side), and its build and timing took 3.3-4.3 s of a case's lay-out, where the CSR plans' took
    // 0.3 s (uniform-2^22's rows, Poisson around 8, are not alike by the rule but not skewed either).
    const bool skewed = longest > 32 * mean + 64;
    int* scratch = nullptr;  // the build's device scratch, freed at the end
    if (rows > 0 && skewed && cudaMalloc(&scratch, scratch_ints(rows, cols, nnz) * sizeof(int)) == cudaSuccess)
        pk = build_packed(rows, cols, nnz, rp, col_idx, scratch);
    const int hot = pk.ok ? pick_hot(pk, blocks) : 0;
    // A candidate: {kind, arg}, kind 0 one width (arg its bin), 1 bins (arg f), 2 packed (arg the hot list's length),
    // 3 packed with split loads.
    std::pair<int, int> best = alike ? std::pair<int, int>{0, bin_of(static_cast<int>(mean + 0.5), 4)}
                                     : pk.ok ? std::pair<int, int>{2, hot} : std::pair<int, int>{1, 4};
    std::vector<int> list;
    int packed_hot = -1;  // the hot list the packed copy in the workspace was last written with
    Plan packed_plan{};
    auto write = [&](std::pair<int, int> cand) {
        if (cand.first >= 2) {
            if (packed_hot != cand.second)
                packed_plan = write_packed(workspace, at, pk, cand.second, blocks, packed_hot < 0, row_ptr, col_idx,
                                           values),
                packed_hot = cand.second;
            packed_plan.split_loads = cand.first == 3;
            write_plan(workspace, at, rows, nnz, packed_plan, count, list);
        } else {
            write_plan(workspace, at, rows, nnz, make_plan(rp, cand.first, cand.second, list), count, list);
        }
    };
    if (tune) {
        // Timed: each candidate twice after a first run, on a scratch x and y; the fastest kept. The rule's first,
        // and no more after kTuneBudget seconds, or after a first run of 50 ms (a GPU times them all in a fraction
        // of that; CPU emulation would not, and its times mean nothing: the rule's plan stays).
        float* x = reinterpret_cast<float*>(ws + at.x);
        float* y = reinterpret_cast<float*>(ws + at.y);
        cudaMemset(x, 0, static_cast<size_t>(cols) * sizeof(float));
        cudaEvent_t begin, end;
        cudaEventCreate(&begin);
        cudaEventCreate(&end);
        std::vector<std::pair<int, int>> candidates = {best};
        if (pk.ok) {  // the packed copy with its hot list, half of it (both with either loads), and none
            candidates.push_back({2, hot});
            if (hot > 0)
                for (const auto& c : {std::pair<int, int>{3, hot}, {3, hot / 512 * 256}, {2, hot / 512 * 256}, {2, 0}})
                    candidates.push_back(c);
        }
        for (int arg = 0; arg < kBins; ++arg) candidates.push_back({0, arg});
        // Bins only where rows differ: rows alike fall into one or two bins, which is one width read through the
        // list, and each binned candidate costs a pass over the rows and the list's copy (on the H200 setup()
        // took 0.47 s of the stencil's lay-out, 0.32 s of uniform-2^22's, with them).
        if (!alike)
            for (int f : {2, 4, 8}) candidates.push_back({1, f});
        std::vector<std::pair<int, int>> unique;
        for (const auto& c : candidates)
            if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(c);
        const double started = seconds_now();
        float best_ms = 1e30f;
        for (const auto& cand : unique) {
            if (seconds_now() - started > kTuneBudget) break;
            write(cand);
            const float* sx = x;
            float ms = 1e30f;
            for (int rep = 0; rep < 3; ++rep) {  // the first run untimed (but a run of 50 ms is no GPU's: stop)
                cudaEventRecord(begin);
                run(rows, nnz, row_ptr, col_idx, values, workspace, at, sx, y);
                cudaEventRecord(end);
                cudaEventSynchronize(end);
                float t = 0;
                cudaEventElapsedTime(&t, begin, end);
                if (rep == 0 && t > 50.0f) break;
                if (rep > 0) ms = std::min(ms, t);
            }
            if (ms < best_ms) best_ms = ms, best = cand;
            if (ms == 1e30f) break;
        }
        cudaEventDestroy(begin);
        cudaEventDestroy(end);
    }
    write(best);
    if (scratch) cudaFree(scratch);
}

extern "C" void solve(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx, const float* values,
                      const void* workspace, const float* x, float* y) {
    if (rows <= 0) return;
    run(rows, nnz, row_ptr, col_idx, values, workspace, Layout(rows, cols, nnz), x, y);
}
