// rle-decompress fast reference: ONE pass over the runs (scan and expansion in the same block), long runs deferred to
// a balanced second kernel. The run offsets never go to global memory. Must get AC; sets the fast end of the score
// scale. On the H200 it took 0.84x the time of the two-pass reference before it (geometric mean over the four
// performance cases, one judge run each; mean-1.5: 845.5 against 1285.5 us).
//   0. clear: zeroes the workspace (tile counter, totals, look-back descriptors), whose content is unspecified.
//   1. scan_expand: one block per tile of 4096 runs (256 threads x 16), the tile index taken from an atomic counter.
//      The block loads its lengths (16-byte vectors) and bytes, reduces them, and gets the tile's exclusive prefix by
//      decoupled look-back (warp 0 looks at up to 32 predecessors at a time). A descriptor is one 64-bit word: status
//      in bits 62-63, the tile's output bytes in bits 0-31 and its deferred chunks in bits 32-61, published by one
//      store. Runs of >= kLong (1024) bytes are deferred (below); the block then writes the rest of the tile's output
//      at once, in one of three ways:
//        mode 1 (no deferred run, output <= 16 KiB - 32: short runs): each thread writes its own runs' bytes into a
//          shared staging buffer (byte stores, 4-byte stores inside longer runs), then the block copies the words out;
//        mode 2 (no deferred run, larger output): the run starts and bytes go to shared memory; each thread takes
//          16-byte words, finds a word's first run through a segment table (the run holding the first byte of each
//          2^s bytes of the tile, <= 4096 segments, s >= 4: a segment of one word needs no search) and a short binary
//          search, and assembles the word run by run (a splat when one run covers it);
//        mode 3 (deferred runs): as mode 2, but over "virtual words": a second block scan counts the words each kept
//          run adds, and a binary search over those counts maps a virtual word to its word, so holes left by deferred
//          runs cost nothing however long, and every word holding a kept byte is visited once.
//      In every mode consecutive threads take consecutive words, so the stores coalesce; a word whose 16 bytes are all
//      this tile's kept bytes is one 16-byte store; a word shared with a neighbouring tile (the tile's two ends) or a
//      deferred run gets byte stores of this tile's kept bytes only, so no byte is written twice (no read-modify-write
//      race). Unaligned raw is handled by working in coordinates shifted by raw % 16.
//      A deferred run is cut into chunks of at most 64 KiB (8 bytes each: output offset, length - 1, byte), stored in
//      a fixed __device__ list at the slot that the look-back's chunk count gives (a warp stores a run's chunks
//      together, one per lane).
//   2. expand_long: a fixed grid (8 blocks per SM) takes the chunks round-robin; a block writes a chunk with 16-byte
//      splat stores, byte stores at its unaligned ends. One run of 2^28 bytes is 4096 chunks over the whole GPU.
//   Kernels 1 and 2 are launched with programmatic dependent launch (they wait in cudaGridDependencySynchronize), so
//   their launch latency hides behind the kernel before them.
//   Traffic: 5 bytes read per run, every output byte written once (16-byte stores except at tile ends and deferred
//   runs' ends), plus 8 bytes per tile of descriptors (cleared, written, read back) and 8 bytes per 64 KiB chunk of
//   long runs (written, read back).
//   Workspace: 16 + 8 x ceil(C / 4096) bytes (24 bytes for C = 1), far below 80 x C. The chunk list is a fixed
//   __device__ array (kMaxChunks x 8 bytes = 2.1 MB), since one run alone may need 4096 chunks.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
constexpr int kItems = 16;                     // runs per thread
constexpr uint32_t kTile = kThreads * kItems;  // 4096 runs per tile
constexpr uint32_t kLong = 1024;               // runs at least this long are written by expand_long
constexpr uint32_t kStage = kTile * 4;         // bytes of the staging buffer of mode 1
constexpr uint32_t kChunk = 65536;             // bytes per chunk of a deferred run (length - 1 fits 16 bits)
// scan_expand blocks per SM: 5 (48 registers, 40 bytes spilled, 37 KiB shared memory each). The kernel waits on
// latency (Nsight Compute at mean-1.5: its top stall the barriers, 48% achieved occupancy of 50%), so a fifth block
// beats the spills. On an H100: `judge bench` device time at mean-1.5 0.910 and 0.913 ms with 4 blocks
// (64 registers, no spill), 0.826 ms with 5; the other three cases the same within 2%. Judged side by side against
// 4 blocks, twice, 0.905-0.914x the time at mean-1.5. Tried the same day, no better than 5: 6 blocks (40 registers,
// 96 bytes spilled); 128-thread blocks at 8 or 10 per SM; the tile index from blockIdx.x instead of the atomic
// counter; mode 1's staging filled by warps 1-7 during warp 0's look-back (tile coordinates).
constexpr int kMinBlocks = 5;
constexpr bool kPdl = true;                    // programmatic dependent launch of kernels 1 and 2
constexpr uint32_t kMaxRaw = 1u << 28;
// Each deferred run of L >= kLong bytes makes ceil(L / kChunk) <= L / kChunk + 1 chunks, and there are at most
// kMaxRaw / kLong deferred runs: at most kMaxRaw / kChunk + kMaxRaw / kLong chunks in all.
constexpr uint32_t kMaxChunks = kMaxRaw / kChunk + kMaxRaw / kLong;
__device__ uint2 g_chunks[kMaxChunks];  // x: output offset, y: (length - 1) | byte << 16

constexpr unsigned long long kAggregate = 1ull << 62;  // descriptor states (bits 62-63); 0 = not published yet
constexpr unsigned long long kInclusive = 2ull << 62;
constexpr unsigned long long kValue = (1ull << 62) - 1;
__device__ __forceinline__ unsigned status(unsigned long long d) { return (unsigned)(d >> 62); }

__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}
__device__ __forceinline__ void allow_next_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// ---- 0. clear the header and descriptors ----------------------------------------------------------------------------
__global__ void clear(unsigned long long* p, uint32_t n) {
    allow_next_kernel();
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = 0;
}

// ---- 1. scan and expansion of each tile -----------------------------------------------------------------------------
__device__ __forceinline__ uint32_t byte_of(const uint4& b, int k) {  // k is a compile-time constant after unrolling
    const uint32_t w = (k >> 2) == 0 ? b.x : (k >> 2) == 1 ? b.y : (k >> 2) == 2 ? b.z : b.w;
    return (w >> (8 * (k & 3))) & 0xffu;
}

// Writes the word of (shifted) output bytes [q, q + 16): the bytes of the tile's kept runs, run r holding the first
// of them. s_start[0..n] are the runs' shifted starts (s_start[n] = the tile's end); a run of kLong bytes or more is
// deferred and not written here. raw + (q - mis) is 16-byte aligned. The word is assembled run by run (two 64-bit
// halves), so its cost is the number of runs in it, one when a run covers it.
__device__ __forceinline__ uint64_t bytes_below(uint32_t k) {  // bytes 0..k-1 of a 64-bit word set, 0 <= k <= 8
    return k >= 8 ? ~0ull : (1ull << (8 * k)) - 1;
}
__device__ __forceinline__ void emit_word(uint32_t q, uint32_t r, uint32_t n, const uint32_t* s_start,
                                          const uint8_t* s_byte, uint8_t* raw, uint32_t mis) {
    uint32_t cs = s_start[r], ce = s_start[r + 1], b = s_byte[r];
    if (cs <= q && ce >= q + 16 && ce - cs < kLong) {  // one kept run covers the whole word
        const uint32_t x = b * 0x01010101u;
        *reinterpret_cast<uint4*>(raw + (q - mis)) = make_uint4(x, x, x, x);
        return;
    }
    uint64_t lo = 0, hi = 0;
    uint32_t mask = 0;
    while (true) {
        if (ce - cs < kLong) {  // kept: its bytes [a, e) of the word
            const uint32_t a = max(cs, q) - q, e = min(ce, q + 16) - q;
            mask |= ((1u << e) - 1) & ~((1u << a) - 1);
            const uint64_t x = b * 0x0101010101010101ull;
            lo |= x & bytes_below(min(e, 8u)) & ~bytes_below(min(a, 8u));
            hi |= x & bytes_below(max(e, 8u) - 8) & ~bytes_below(max(a, 8u) - 8);
        }
        if (ce >= q + 16 || r + 1 >= n) break;
        ++r;
        cs = ce;
        ce = s_start[r + 1];
        b = s_byte[r];
    }
    if (mask == 0xffffu) {
        *reinterpret_cast<uint4*>(raw + (q - mis)) =
            make_uint4((uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32));
    } else {  // a word shared with the neighbouring tile or a deferred run: only this tile's bytes
#pragma unroll
        for (int j = 0; j < 16; ++j)
            if (mask >> j & 1u) raw[q + j - mis] = (uint8_t)((j < 8 ? lo >> (8 * j) : hi >> (8 * (j - 8))) & 0xffu);
    }
}

// Bytes [a, e) of the staging buffer get b (a run, clipped to the buffer; e - a may be up to kLong - 1).
__device__ __forceinline__ void fill_run(uint8_t* stage, uint32_t a, uint32_t e, uint32_t b) {
    if (e - a < 12) {
        for (uint32_t p = a; p < e; ++p) stage[p] = (uint8_t)b;
        return;
    }
    const uint32_t a4 = (a + 3) & ~3u, e4 = e & ~3u, x = b * 0x01010101u;
    for (uint32_t p = a; p < a4; ++p) stage[p] = (uint8_t)b;
    for (uint32_t p = a4; p < e4; p += 4) *reinterpret_cast<uint32_t*>(stage + p) = x;
    for (uint32_t p = e4; p < e; ++p) stage[p] = (uint8_t)b;
}

// workspace: header [0] the next tile index, [1] the total output bytes, [2] the number of chunks; descriptors follow.
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    scan_expand(const uint32_t* __restrict__ len, const uint8_t* __restrict__ data, uint32_t count,
                uint32_t num_tiles, bool len_aligned, bool data_aligned, uint32_t* header, unsigned long long* desc,
                uint8_t* __restrict__ raw, uint32_t capacity, uint32_t mis) {
    __shared__ __align__(16) uint32_t s_start[kTile + 4];  // shifted run starts (output offset + mis)
    // Per mode: the staging buffer of the output (short runs), the segment table (kept runs) or the first virtual word
    // of each run (deferred runs).
    __shared__ __align__(16) uint32_t s_aux[kTile];
    __shared__ __align__(16) uint8_t s_byte[kTile];
    __shared__ unsigned long long s_warp[kWarps];
    __shared__ uint32_t s_last_long[kWarps];
    __shared__ uint32_t s_tile;
    __shared__ unsigned long long s_prefix;

    wait_for_previous_kernel();  // the header and descriptors are cleared
    allow_next_kernel();
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    if (tid == 0) s_tile = atomicAdd(&header[0], 1u);
    __syncthreads();
    const uint32_t tile = s_tile;
    const uint32_t tile_first = tile * kTile;
    const uint32_t n = min(kTile, count - tile_first);  // runs in this tile
    const uint32_t first = tile_first + tid * kItems;   // this thread's first run

    uint32_t v[kItems];
    uint4 bytes;
    if (len_aligned && first + kItems <= count) {
#pragma unroll
        for (int k = 0; k < kItems / 4; ++k) {
            const uint4 q = __ldg(reinterpret_cast<const uint4*>(len + first) + k);
            v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < kItems; ++k) v[k] = first + k < count ? __ldg(len + first + k) : 0;
    }
    if (data_aligned && first + kItems <= count) {
        bytes = __ldg(reinterpret_cast<const uint4*>(data + first));
    } else {
        uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
        for (int k = 0; k < kItems; ++k)
            if (first + k < count) w[k >> 2] |= (uint32_t)__ldg(data + first + k) << (8 * (k & 3));
        bytes = make_uint4(w[0], w[1], w[2], w[3]);
    }

    // This thread's output bytes (bits 0-31) and chunks of deferred runs (bits 32-61).
    uint32_t sum = 0, chunks = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        sum += v[k];
        if (v[k] >= kLong) chunks += (v[k] - 1) / kChunk + 1;
    }
    const unsigned long long mine = sum | (unsigned long long)chunks << 32;

    // Block scan: warp shuffles, then the warp totals.
    unsigned long long incl = mine;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned long long o = __shfl_up_sync(kFull, incl, d);
        if (lane >= d) incl += o;
    }
    if (lane == 31) {
        s_warp[warp] = incl;
        s_last_long[warp] = v[kItems - 1] >= kLong;
    }
    const bool any_long = __syncthreads_or(chunks != 0);
    unsigned long long excl = incl - mine, tile_total = 0;
#pragma unroll
    for (int i = 0; i < kWarps; ++i) {
        if (i == warp) excl += tile_total;
        tile_total += s_warp[i];
    }

    // Decoupled look-back (warp 0).
    if (warp == 0) {
        volatile unsigned long long* vdesc = desc;
        unsigned long long prefix = 0;
        if (tile == 0) {
            if (lane == 0) vdesc[0] = kInclusive | tile_total;
        } else {
            if (lane == 0) vdesc[tile] = kAggregate | tile_total;
            int top = (int)tile - 1;  // the newest predecessor not folded in yet
            while (true) {
                const int idx = top - lane;
                unsigned long long d = kInclusive;  // before tile 0: the identity
                if (idx >= 0) d = vdesc[idx];
                while (__any_sync(kFull, status(d) == 0))
                    if (status(d) == 0) d = vdesc[idx];
                const unsigned inclusive = __ballot_sync(kFull, status(d) == 2);
                const int stop = inclusive ? __ffs(inclusive) - 1 : 31;  // nearest inclusive predecessor
                const unsigned long long val = lane <= stop ? d & kValue : 0;
                const uint32_t lo = __reduce_add_sync(kFull, (uint32_t)val);
                const uint32_t hi = __reduce_add_sync(kFull, (uint32_t)(val >> 32));
                prefix += lo | (unsigned long long)hi << 32;
                if (inclusive) break;
                top -= 32;
            }
            if (lane == 0) vdesc[tile] = kInclusive | (prefix + tile_total);
        }
        if (lane == 0) {
            s_prefix = prefix;
            if (tile == num_tiles - 1) {
                header[1] = (uint32_t)(prefix + tile_total);
                header[2] = (uint32_t)((prefix + tile_total) >> 32);
            }
        }
    }
    __syncthreads();
    const unsigned long long prefix = s_prefix;
    const uint32_t tile_out = (uint32_t)prefix;  // the tile's first output byte
    const uint32_t A = mis + min(tile_out, capacity);
    const uint32_t B = mis + min(tile_out + (uint32_t)tile_total, capacity);  // the tile's output: [A, B), shifted

    // Shifted coordinates: output byte p is at raw + (p - mis), so a multiple of 16 is a 16-byte aligned address.
    // This thread's first run starts at output byte first_out; the others follow, recomputed in each loop rather than
    // kept in registers (scan_expand stays at 64 registers).
    const uint32_t first_out = tile_out + (uint32_t)excl;
    const uint32_t base = A & ~15u;  // the tile's first word

    if (!any_long && (uint32_t)tile_total <= kStage - 32) {
        // Mode 1, short runs (the tile's output fits the staging buffer): each thread writes its own runs' bytes into
        // shared memory, then the block copies the words out, 16-byte stores but for the two end words.
        uint8_t* stage = reinterpret_cast<uint8_t*>(s_aux);
        uint32_t p = first_out + mis - base;
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            fill_run(stage, p, p + v[k], byte_of(bytes, k));
            p += v[k];
        }
        __syncthreads();
        const uint32_t num_words = ((B - 1 - base) >> 4) + 1;
        for (uint32_t i = tid; i < num_words; i += kThreads) {
            const uint32_t q = base + 16 * i;
            const uint4 w = reinterpret_cast<const uint4*>(stage)[i];
            if (q >= A && q + 16 <= B) {
                *reinterpret_cast<uint4*>(raw + (q - mis)) = w;
            } else {
                const uint32_t part[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
                for (int j = 0; j < 16; ++j)
                    if (q + j >= A && q + j < B) raw[q + j - mis] = (uint8_t)(part[j >> 2] >> (8 * (j & 3)));
            }
        }
        return;
    }

    // Stage the run starts and bytes (padding runs of the last tile start at B, so searches never pick them).
    {
        uint32_t o = first_out, st[4];
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            st[k & 3] = mis + min(o, capacity);
            o += v[k];
            if ((k & 3) == 3)
                reinterpret_cast<uint4*>(s_start + tid * kItems)[k >> 2] = make_uint4(st[0], st[1], st[2], st[3]);
        }
    }
    reinterpret_cast<uint4*>(s_byte)[tid] = bytes;
    if (tid == 0) s_start[kTile] = B;

    if (!any_long) {
        // Mode 2, no deferred run: each thread takes 16-byte words, two at a time. A segment table (the run holding
        // the first byte of each 2^shift bytes of the tile's output, at most kTile segments) narrows the search for a
        // word's first run to the runs of its segment: none to search when a segment is one word.
        const uint32_t range = B - base;
        uint32_t shift = 4;
        while (((range - 1) >> shift) >= kTile) ++shift;
        const uint32_t num_segs = ((range - 1) >> shift) + 1;
        uint32_t* seg = s_aux;
        uint32_t o = first_out + mis - base;
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            if (v[k] != 0) {
                const uint32_t g0 = (o + (1u << shift) - 1) >> shift;
                const uint32_t g1 = min((o + v[k] - 1) >> shift, num_segs - 1);
                for (uint32_t g = g0; g <= g1; ++g) seg[g] = tid * kItems + k;
            }
            o += v[k];
        }
        if (tid == 0 && base < A) seg[0] = 0;  // no run holds the word's bytes before A
        __syncthreads();
        const uint32_t num_words = ((B - 1 - base) >> 4) + 1;
        for (uint32_t i0 = tid; i0 < num_words; i0 += 2 * kThreads) {
            const bool two = i0 + kThreads < num_words;
            const uint32_t q0 = base + 16 * i0, q1 = two ? q0 + 16 * kThreads : q0;
            const uint32_t g0 = (q0 - base) >> shift, g1 = (q1 - base) >> shift;
            // The last run starting at or before the word's first byte lies in [seg[g], seg[g + 1]].
            uint32_t lo0 = seg[g0], hi0 = g0 + 1 < num_segs ? seg[g0 + 1] : n - 1;
            uint32_t lo1 = seg[g1], hi1 = g1 + 1 < num_segs ? seg[g1 + 1] : n - 1;
            while (lo0 < hi0 || lo1 < hi1) {
                const uint32_t m0 = (lo0 + hi0 + 1) >> 1, m1 = (lo1 + hi1 + 1) >> 1;
                if (lo0 < hi0) {
                    if (s_start[m0] <= q0) lo0 = m0; else hi0 = m0 - 1;
                }
                if (lo1 < hi1) {
                    if (s_start[m1] <= q1) lo1 = m1; else hi1 = m1 - 1;
                }
            }
            emit_word(q0, lo0, n, s_start, s_byte, raw, mis);
            if (two) emit_word(q1, lo1, n, s_start, s_byte, raw, mis);
        }
        return;
    }

    // Mode 3, deferred runs. Their chunks first: each warp stores its runs' chunks together, a chunk per lane.
    {
        uint32_t s = first_out, c = (uint32_t)(prefix >> 32) + (uint32_t)(excl >> 32);
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const bool lng = v[k] >= kLong;
            const uint32_t nc = lng ? (v[k] - 1) / kChunk + 1 : 0;
            unsigned todo = __ballot_sync(kFull, lng);
            while (todo) {
                const int src = __ffs(todo) - 1;
                todo &= todo - 1;
                const uint32_t rs = __shfl_sync(kFull, s, src), rl = __shfl_sync(kFull, v[k], src);
                const uint32_t rc = __shfl_sync(kFull, c, src), rn = __shfl_sync(kFull, nc, src);
                const uint32_t rb = __shfl_sync(kFull, byte_of(bytes, k), src);
                for (uint32_t i = lane; i < rn; i += 32)
                    if (rc + i < kMaxChunks)
                        g_chunks[rc + i] = make_uint2(rs + i * kChunk, (min(kChunk, rl - i * kChunk) - 1) | rb << 16);
            }
            s += v[k];
            c += nc;
        }
    }
    // Virtual words: the words a kept run adds to those of the kept runs before it (its first word is already
    // counted when the run before it is kept and ends inside that word). Deferred runs add none, so the words of every
    // hole are skipped. The run before the tile's first one belongs to another tile: not counted.
    const uint32_t prev_up = __shfl_up_sync(kFull, (uint32_t)(v[kItems - 1] >= kLong), 1);
    const bool first_prev_kept = tid == 0 ? false : lane ? !prev_up : !s_last_long[warp - 1];
    auto new_words = [&](int k, uint32_t s, bool prev_kept) -> uint32_t {  // s: the run's shifted start
        const bool kept = v[k] != 0 && v[k] < kLong;
        return kept ? ((s + v[k] - 1) >> 4) - (s >> 4) + 1 - (prev_kept && (s & 15) ? 1 : 0) : 0;
    };
    uint32_t words = 0;
    {
        uint32_t o = first_out + mis;
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            words += new_words(k, o, k ? v[k - 1] < kLong : first_prev_kept);
            o += v[k];
        }
    }
    uint32_t winc = words;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const uint32_t o = __shfl_up_sync(kFull, winc, d);
        if (lane >= d) winc += o;
    }
    if (lane == 31) s_warp[warp] = winc;  // every thread read s_warp before the last barrier
    __syncthreads();
    uint32_t wex = winc - words, num_words = 0;
#pragma unroll
    for (int i = 0; i < kWarps; ++i) {
        if (i == warp) wex += num_words;
        num_words += (uint32_t)s_warp[i];
    }
    uint32_t* s_vw = s_aux;
    {
        uint32_t o = first_out + mis;
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            s_vw[tid * kItems + k] = wex;  // padding runs get the total, so searches never pick them
            wex += new_words(k, o, k ? v[k - 1] < kLong : first_prev_kept);
            o += v[k];
        }
    }
    __syncthreads();

    // Virtual word i, two at a time (independent searches overlap their shared-memory latency).
    for (uint32_t i0 = tid; i0 < num_words; i0 += 2 * kThreads) {
        const bool two = i0 + kThreads < num_words;
        const uint32_t i1 = two ? i0 + kThreads : i0;
        // The last run whose first virtual word is <= i (non-decreasing; padding runs are above every i).
        uint32_t r0 = 0, r1 = 0;
#pragma unroll
        for (uint32_t step = kTile / 2; step > 0; step >>= 1) {
            if (s_vw[r0 + step] <= i0) r0 += step;
            if (s_vw[r1 + step] <= i1) r1 += step;
        }
        // Virtual word -> word: the run's new words start at its first word, or the next one if that is counted.
        const uint32_t c0 = s_start[r0], c1 = s_start[r1];
        const bool d0 = r0 > 0 && c0 - s_start[r0 - 1] < kLong && (c0 & 15);
        const bool d1 = r1 > 0 && c1 - s_start[r1 - 1] < kLong && (c1 & 15);
        const uint32_t q0 = ((c0 >> 4) + d0 + (i0 - s_vw[r0])) << 4;
        const uint32_t q1 = ((c1 >> 4) + d1 + (i1 - s_vw[r1])) << 4;
        emit_word(q0, r0, n, s_start, s_byte, raw, mis);
        if (two) emit_word(q1, r1, n, s_start, s_byte, raw, mis);
    }
}

// ---- 2. the deferred runs, chunk by chunk ---------------------------------------------------------------------------
__global__ void __launch_bounds__(kThreads)
    expand_long(const uint32_t* header, uint8_t* __restrict__ raw, uint32_t capacity, uint32_t mis) {
    wait_for_previous_kernel();  // the chunks and their count are written
    const uint32_t num_chunks = min(header[2], kMaxChunks);
    const uint32_t tid = threadIdx.x;
    uint2 e = blockIdx.x < num_chunks ? g_chunks[blockIdx.x] : make_uint2(0, 0);
    for (uint32_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
        const uint2 cur = e;
        if (c + gridDim.x < num_chunks) e = g_chunks[c + gridDim.x];  // the next one's load overlaps the stores
        // Shifted coordinates: raw + (p - mis) is 16-byte aligned when p is a multiple of 16.
        const uint32_t S = mis + min(cur.x, capacity);
        const uint32_t E = mis + min(cur.x + (cur.y & 0xffffu) + 1, capacity);
        const uint8_t b = (uint8_t)(cur.y >> 16);
        const uint32_t a0 = (S + 15) & ~15u, a1 = E & ~15u;  // whole words: [a0, a1)
        if (a0 < a1) {
            const uint32_t x = b * 0x01010101u;
            const uint4 val = make_uint4(x, x, x, x);
#pragma unroll 4
            for (uint32_t a = a0 + 16 * tid; a < a1; a += 16 * kThreads)
                *reinterpret_cast<uint4*>(raw + (a - mis)) = val;
            if (tid < a0 - S) raw[S - mis + tid] = b;                          // head, < 16 bytes
            if (tid >= 32 && tid - 32 < E - a1) raw[a1 - mis + (tid - 32)] = b;  // tail, < 16 bytes
        } else if (tid < E - S) {  // no whole word: at most 30 bytes
            raw[S - mis + tid] = b;
        }
    }
}

uint32_t num_tiles(uint32_t count) { return (count + kTile - 1) / kTile; }

// The count reaches the host through a word of mapped, pinned host memory that a one-thread kernel writes, not
// through a cudaMemcpy: a call's first copy waits for the copy engine to switch to this process's context from the
// one that used it last (the judge's upload of the inputs), which the kernels never wait for.
__global__ void publish_count(const uint32_t* from, volatile uint32_t* to) { *to = *from; }

uint32_t count_on_host(const uint32_t* on_device) {
    static uint32_t* word = nullptr;
    static bool tried = false;
    if (!tried) {
        tried = true;
        if (cudaHostAlloc(&word, sizeof *word, cudaHostAllocMapped) != cudaSuccess) {
            word = nullptr;
            (void)cudaGetLastError();
        }
    }
    if (word) {
        publish_count<<<1, 1>>>(on_device, word);
        if (cudaStreamSynchronize(0) == cudaSuccess) return *static_cast<volatile uint32_t*>(word);
    }
    uint32_t n = 0;  // no mapped memory here: the copy
    cudaMemcpy(&n, on_device, sizeof n, cudaMemcpyDeviceToHost);
    return n;
}

// Launches with programmatic dependent launch; a plain launch where that is refused.
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), uint32_t grid, bool dependent, Args... args) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = 0;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = dependent && kPdl ? 1 : 0;
    if (cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...) != cudaSuccess && cfg.numAttrs) {
        (void)cudaGetLastError();
        cfg.numAttrs = 0;
        cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...);
    }
}

}  // namespace

extern "C" size_t workspace_size(uint32_t compressed_count) {
    return compressed_count == 0 ? 0 : 16 + sizeof(unsigned long long) * (size_t)num_tiles(compressed_count);
}

extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity) {
    if (compressed_count == 0 || raw_capacity == 0) return 0;  // nothing to write, and no zero-block launch
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 132;
    }
    const uint32_t tiles = num_tiles(compressed_count);
    auto* header = static_cast<uint32_t*>(workspace);
    auto* desc = reinterpret_cast<unsigned long long*>(static_cast<char*>(workspace) + 16);
    const uint32_t words = 2 + tiles;  // header and descriptors, 8 bytes each
    launch(clear, min((words + kThreads - 1) / kThreads, 1024u), false, static_cast<unsigned long long*>(workspace),
           words);
    const uint32_t mis = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(raw) % 16);
    launch(scan_expand, tiles, true, compressed_lengths, reinterpret_cast<const uint8_t*>(compressed_data),
           compressed_count, tiles, reinterpret_cast<uintptr_t>(compressed_lengths) % 16 == 0,
           reinterpret_cast<uintptr_t>(compressed_data) % 16 == 0, header, desc, reinterpret_cast<uint8_t*>(raw),
           raw_capacity, mis);
    launch(expand_long, (uint32_t)sms * 8, true, const_cast<const uint32_t*>(header), reinterpret_cast<uint8_t*>(raw),
           raw_capacity, mis);
    return count_on_host(header + 1);
}
