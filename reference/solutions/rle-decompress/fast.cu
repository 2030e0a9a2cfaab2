// rle-decompress fast reference: a scan of the lengths, then an expansion balanced over the OUTPUT. Must get AC; sets
// the fast end of the score scale.
//   1. scan_lengths: exclusive prefix sums of the lengths (each run's first output byte) in one pass, with decoupled
//      look-back: tiles of 4096 lengths (256 threads x 16, read and written as 16-byte vectors) take their index
//      from an atomic counter, publish their sum, and warp 0 looks back over up to 32 predecessors at a time until
//      it meets an inclusive prefix. A descriptor is one 64-bit word (status and value published by one store). The
//      last tile stores the total, the byte count solve() returns.
//   2. partition: the output is cut into slices of 8192 bytes; one thread per slice binary-searches the offsets for
//      the run holding the slice's first byte (merge-path style: all searches run at once, hiding their latency).
//   3. expand: one block per slice, so every block writes the same number of bytes however the runs are spread
//      (one run of 2^28 bytes, or 2^28 runs of 1). The slice's runs (at most 8193, as every run is at least one
//      byte) are staged in shared memory; each thread writes 16-byte chunks, coalesced across the warp: a binary
//      search in shared memory finds the chunk's first run, a chunk inside one run is that byte splatted, and
//      other chunks are assembled byte by byte walking the runs forward.
//   Traffic: 5 bytes read per run in (1) + (3), 4 written and read back for the offsets, and the output once.
//   The offsets and look-back descriptors live in the workspace (zeroed by a cudaMemsetAsync each call, as its content
//   is unspecified); the per-slice search results in a fixed __device__ array (128 KiB), since the workspace may
//   only grow with compressed_count and the slices grow with the output.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

// ---- 1. scan of the lengths ---------------------------------------------------------------------------------------
constexpr int kItems = 16;                        // lengths per thread
constexpr uint32_t kTile = kThreads * kItems;     // 4096 lengths per tile
constexpr unsigned long long kAggregate = 1ull << 62;  // descriptor states (bits 62-63); 0 = not published yet
constexpr unsigned long long kInclusive = 2ull << 62;
__device__ __forceinline__ unsigned status(unsigned long long d) { return (unsigned)(d >> 62); }

// workspace header: [0] the next tile index, [1] the total (bytes of output); descriptors and offsets follow.
__global__ void __launch_bounds__(kThreads)
    scan_lengths(const uint32_t* __restrict__ len, uint32_t count, bool aligned, uint32_t num_tiles, uint32_t* header,
                 unsigned long long* desc, uint32_t* __restrict__ offsets) {
    __shared__ uint32_t s_warp[kWarps];
    __shared__ uint32_t s_tile, s_prefix;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    if (tid == 0) s_tile = atomicAdd(&header[0], 1u);
    __syncthreads();
    const uint32_t tile = s_tile;
    const uint32_t first = tile * kTile + tid * kItems;  // this thread's first run
    const bool full = aligned && first + kItems <= count;

    uint32_t v[kItems];
    if (full) {
#pragma unroll
        for (int k = 0; k < kItems / 4; ++k) {
            const uint4 q = __ldg(reinterpret_cast<const uint4*>(len + first) + k);
            v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < kItems; ++k) v[k] = first + k < count ? len[first + k] : 0;
    }
    uint32_t sum = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) sum += v[k];

    // Block scan: warp shuffles, then the warp totals.
    uint32_t incl = sum;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const uint32_t o = __shfl_up_sync(kFull, incl, d);
        if (lane >= d) incl += o;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    uint32_t excl = incl - sum, tile_total = 0;
#pragma unroll
    for (int i = 0; i < kWarps; ++i) {
        if (i == warp) excl += tile_total;
        tile_total += s_warp[i];
    }

    // Decoupled look-back (warp 0).
    if (warp == 0) {
        volatile unsigned long long* vdesc = desc;
        uint32_t prefix = 0;
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
                prefix += __reduce_add_sync(kFull, lane <= stop ? (uint32_t)d : 0u);
                if (inclusive) break;
                top -= 32;
            }
            if (lane == 0) vdesc[tile] = kInclusive | (uint32_t)(prefix + tile_total);
        }
        if (lane == 0) {
            s_prefix = prefix;
            if (tile == num_tiles - 1) header[1] = prefix + tile_total;
        }
    }
    __syncthreads();

    uint32_t o[kItems], run = s_prefix + excl;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        o[k] = run;
        run += v[k];
    }
    if (full) {
#pragma unroll
        for (int k = 0; k < kItems / 4; ++k)
            reinterpret_cast<uint4*>(offsets + first)[k] = make_uint4(o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]);
    } else {
#pragma unroll
        for (int k = 0; k < kItems; ++k)
            if (first + k < count) offsets[first + k] = o[k];
    }
}

// ---- 2. partition of the output -------------------------------------------------------------------------------------
constexpr uint32_t kSlice = 8192;                                // output bytes per block of expand
constexpr uint32_t kMaxSlices = (1u << 28) / kSlice;             // raw_capacity <= 2^28
__device__ uint32_t g_first_run[kMaxSlices];                     // run holding each slice's first byte

__global__ void partition(const uint32_t* __restrict__ offsets, uint32_t count, uint32_t num_slices) {
    const uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= num_slices) return;
    const uint32_t x = s * kSlice;
    uint32_t lo = 0, hi = count;  // offsets[lo] <= x < offsets[hi] (offsets[count] = the total)
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (offsets[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    g_first_run[s] = lo;
}

// ---- 3. expansion, one slice per block ---------------------------------------------------------------------------
constexpr int kChunksPerThread = kSlice / 16 / kThreads;  // 2
static_assert(kChunksPerThread * 16 * kThreads == kSlice, "a slice is whole chunks");

__global__ void __launch_bounds__(kThreads)
    expand(const uint8_t* __restrict__ data, const uint32_t* __restrict__ offsets, uint32_t count,
           uint32_t num_slices, const uint32_t* header, uint32_t capacity, bool aligned, uint8_t* __restrict__ raw) {
    __shared__ uint32_t s_off[kSlice + 2];  // offsets of the slice's runs, then the end of the last one
    __shared__ uint8_t s_data[kSlice + 1];
    const int tid = threadIdx.x;
    const uint32_t s = blockIdx.x;
    const uint32_t total = header[1];
    const uint32_t limit = min(total, capacity);  // the bytes to write (equal for a valid input)
    const uint32_t begin = s * kSlice;
    if (begin >= limit) return;  // the whole block leaves, before any barrier
    const uint32_t end = min(begin + kSlice, limit);

    // Runs r0..r1 cover the slice: r1 holds the next slice's first byte (or is the last run), so s_off[w] > every
    // byte of the slice, and w <= kSlice + 1 since every run has at least one byte.
    const uint32_t r0 = g_first_run[s];
    const uint32_t r1 = s + 1 < num_slices ? g_first_run[s + 1] : count - 1;
    const uint32_t w = min(r1 - r0 + 1, kSlice + 1);  // (the min only guards shared memory against invalid input)
    for (uint32_t i = tid; i <= w; i += kThreads) {
        const uint32_t r = r0 + i;
        s_off[i] = r < count ? offsets[r] : total;
        if (i < w) s_data[i] = data[r];
    }
    __syncthreads();

#pragma unroll
    for (int c = 0; c < kChunksPerThread; ++c) {
        const uint32_t q = begin + 16 * (tid + c * kThreads);  // this chunk's first byte
        if (q >= end) break;
        // The run holding byte q: the last i with s_off[i] <= q.
        uint32_t lo = 0, hi = w;
        while (hi - lo > 1) {
            const uint32_t mid = (lo + hi) / 2;
            if (s_off[mid] <= q)
                lo = mid;
            else
                hi = mid;
        }
        uint32_t r = lo, next = s_off[r + 1];
        uint32_t byte = s_data[r];
        if (aligned && q + 16 <= end) {
            uint4 out;
            if (next >= q + 16) {  // the whole chunk is one run
                const uint32_t x = byte * 0x01010101u;
                out = make_uint4(x, x, x, x);
            } else {
                uint32_t word[4] = {0, 0, 0, 0};
#pragma unroll
                for (int j = 0; j < 16; ++j) {
                    while (q + j >= next) {
                        ++r;
                        next = s_off[r + 1];
                        byte = s_data[r];
                    }
                    word[j / 4] |= byte << (8 * (j % 4));
                }
                out = make_uint4(word[0], word[1], word[2], word[3]);
            }
            *reinterpret_cast<uint4*>(raw + q) = out;
        } else {  // the last, partial chunk
            for (uint32_t p = q; p < end && p < q + 16; ++p) {
                while (p >= next) {
                    ++r;
                    next = s_off[r + 1];
                    byte = s_data[r];
                }
                raw[p] = (uint8_t)byte;
            }
        }
    }
}

uint32_t num_tiles(uint32_t count) { return (count + kTile - 1) / kTile; }
size_t offsets_at(uint32_t count) { return (16 + sizeof(unsigned long long) * num_tiles(count) + 15) / 16 * 16; }

}  // namespace

extern "C" size_t workspace_size(uint32_t compressed_count) {
    return compressed_count == 0 ? 0 : offsets_at(compressed_count) + sizeof(uint32_t) * compressed_count;
}

extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity) {
    if (compressed_count == 0 || raw_capacity == 0) return 0;  // nothing to write, and no zero-block launch
    const uint32_t tiles = num_tiles(compressed_count);
    auto* header = static_cast<uint32_t*>(workspace);
    auto* desc = reinterpret_cast<unsigned long long*>(static_cast<char*>(workspace) + 16);
    auto* offsets = reinterpret_cast<uint32_t*>(static_cast<char*>(workspace) + offsets_at(compressed_count));
    cudaMemsetAsync(workspace, 0, 16 + sizeof(unsigned long long) * tiles);  // tile counter and descriptors
    const bool lengths_aligned = reinterpret_cast<uintptr_t>(compressed_lengths) % 16 == 0 &&
                                 reinterpret_cast<uintptr_t>(offsets) % 16 == 0;
    scan_lengths<<<tiles, kThreads>>>(compressed_lengths, compressed_count, lengths_aligned, tiles, header, desc,
                                      offsets);
    const uint32_t slices = (raw_capacity + kSlice - 1) / kSlice;
    partition<<<(slices + kThreads - 1) / kThreads, kThreads>>>(offsets, compressed_count, slices);
    expand<<<slices, kThreads>>>(reinterpret_cast<const uint8_t*>(compressed_data), offsets, compressed_count, slices,
                                 header, raw_capacity, reinterpret_cast<uintptr_t>(raw) % 16 == 0,
                                 reinterpret_cast<uint8_t*>(raw));
    uint32_t total = 0;
    cudaMemcpy(&total, header + 1, sizeof total, cudaMemcpyDeviceToHost);
    return total;
}
