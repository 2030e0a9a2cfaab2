// prefix-sum fast reference: one kernel, a single-pass scan with decoupled look-back (Merrill & Garland, 2016).
// Must get AC; sets the fast end of the score scale.
//   - A tile is 6144 elements: 256 threads (8 warps) x 24 ints. Each warp owns 768 consecutive elements and reads
//     them warp-striped: lane l loads the 16-byte vectors l, l + 32, ..., l + 160 of its warp's chunk, so every
//     load (and later every store) instruction of a warp covers 512 contiguous bytes, fully coalesced. No shared-
//     memory transpose is needed: the scan runs in that layout. (Scalar code for the last tile and for pointers not
//     16-byte aligned, with the same element-to-thread mapping.)
//   - Scan: each lane scans its 4 ints inside each of its 6 vectors; the vector totals of a column k (one per
//     lane) are scanned across the warp with __shfl_up_sync, and the totals of columns 0 .. k-1 are carried into
//     column k. The 8 warp totals go through shared memory: each warp's exclusive prefix inside the tile, the
//     tile's aggregate. Then each warp parks its scanned vectors in shared memory (only the same lane reads them
//     back: no barrier) until the tile's prefix is known, so the look-back costs no registers on top of the data:
//     40 registers a thread, 6 blocks (36864 ints) per SM.
//   - Tiles take their index from an atomic counter, so a tile only ever waits for tiles that are already running.
//     A tile publishes its aggregate, then warp 0 looks back over the descriptors of up to 128 predecessors at a
//     time (4 per lane, read together), waits (with a short __nanosleep between polls, to keep the polling off
//     the L2) only for those nearer than the nearest inclusive prefix, adds their aggregates and that prefix, and
//     publishes its own inclusive prefix. A wide window matters most when the grid starts: the first ~800 tiles
//     begin together and only tile 0 knows its prefix.
//   - A descriptor is one 64-bit word: status in bits 62-63, the call's epoch in bits 32-61, the 32-bit value
//     below, so value and status are published together by one store and read together by one load. A word of
//     an earlier call has another epoch and reads as "not yet published": nothing is cleared between calls. The
//     tile counter is reset by the block that draws the last tile (every block draws exactly once), so a call is
//     one kernel launch, with no memset.
//   - Traffic: N ints read, N written, plus 8 bytes of descriptor per tile.
// Measured on the H200 (`judge bench prefix-sum`, device time): n256M 752.4 us against CUB's
// DeviceScan::InclusiveSum 724.6 us (0.96x), n16M 62.5 against 61.7 us (0.99x); the version before (16 consecutive
// ints per thread loaded straight from global memory, a 64-byte stride between lanes, and a memset of the
// descriptors each call) took 1014 and 86.6 us. Persistent blocks with the next tile's loads in flight during the
// look-back were tried the same day and were slower at n256M (1.20x and 1.10x this file's time, side by side).
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kVecs = 6;                    // 16-byte vectors per lane
constexpr int kItems = 4 * kVecs;           // ints per thread
constexpr int kWarpItems = 32 * kItems;     // consecutive ints per warp
constexpr int kTile = kThreads * kItems;
constexpr int kMaxTiles = (1 << 28) / kTile + 1;
constexpr unsigned kFull = 0xffffffffu;
constexpr int kMinBlocks = 6;               // 6 x 256 threads x 40 registers fill the register file
constexpr int kLookVecs = 4;                // descriptors per lane in one look-back window
constexpr int kWindow = 32 * kLookVecs;
constexpr unsigned kPollSleepNs = 64;       // pause between two polls of unpublished descriptors

constexpr unsigned kAggregate = 1u;  // the tile's own total
constexpr unsigned kInclusive = 2u;  // the total of the tile and all before it
constexpr unsigned kEpochMask = (1u << 30) - 1;

__device__ unsigned long long g_desc[kMaxTiles];  // one descriptor per tile
__device__ unsigned int g_counter;                 // the next tile index; back to 0 at the end of every call

__device__ __forceinline__ unsigned long long make_desc(unsigned status, unsigned epoch, unsigned value) {
    return ((unsigned long long)((status << 30) | epoch) << 32) | value;
}
// 0 (not published in this call), kAggregate or kInclusive.
__device__ __forceinline__ unsigned status_of(unsigned long long d, unsigned epoch) {
    const unsigned hi = (unsigned)(d >> 32);
    return (hi & kEpochMask) == epoch ? hi >> 30 : 0u;
}

__device__ __forceinline__ void pause_poll() {
#ifndef HPCJUDGE_EMULATION
    __nanosleep(kPollSleepNs);
#endif
}

// Warp 0, all lanes: the sum of every tile before `tile` (tile >= 1), read from the descriptors.
__device__ unsigned look_back(const volatile unsigned long long* desc, int tile, unsigned epoch, int lane) {
    unsigned prefix = 0;
    int top = tile - 1;  // the newest predecessor not added yet
    while (true) {
        // Position p = 32 m + lane is the predecessor top - p; positions before tile 0 read as an inclusive zero.
        unsigned long long d[kLookVecs];
#pragma unroll
        for (int m = 0; m < kLookVecs; ++m) {
            const int idx = top - (32 * m + lane);
            d[m] = idx >= 0 ? desc[idx] : make_desc(kInclusive, epoch, 0u);
        }
        int stop;  // the position of the nearest inclusive prefix, kWindow if none
        while (true) {
            stop = kWindow;
#pragma unroll
            for (int m = 0; m < kLookVecs; ++m) {
                const unsigned incl = __ballot_sync(kFull, status_of(d[m], epoch) == kInclusive);
                if (stop == kWindow && incl) stop = 32 * m + __ffs(incl) - 1;
            }
            bool pending = false;  // a position of this lane nearer than `stop`, not published yet
#pragma unroll
            for (int m = 0; m < kLookVecs; ++m) pending |= 32 * m + lane < stop && status_of(d[m], epoch) == 0u;
            if (!__any_sync(kFull, pending)) break;
            pause_poll();
#pragma unroll
            for (int m = 0; m < kLookVecs; ++m)
                if (32 * m + lane < stop && status_of(d[m], epoch) == 0u) d[m] = desc[top - (32 * m + lane)];
        }
        unsigned part = 0;
#pragma unroll
        for (int m = 0; m < kLookVecs; ++m)
            if (32 * m + lane <= stop) part += (unsigned)d[m];
        prefix += __reduce_add_sync(kFull, part);
        if (stop < kWindow) return prefix;
        top -= kWindow;
    }
}

// Sums wrap modulo 2^32 in unsigned arithmetic (no signed overflow); the inputs keep every prefix in int32.
__global__ void __launch_bounds__(kThreads, kMinBlocks) scan(const int* __restrict__ in, int* __restrict__ out, int n,
                                                             int tiles, unsigned epoch, bool aligned) {
    __shared__ uint4 s_data[kWarps][kVecs][32];  // each warp's scanned vectors, while warp 0 looks back
    __shared__ unsigned s_warp[kWarps];
    __shared__ unsigned s_prefix;
    __shared__ unsigned s_tile;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    if (tid == 0) {
        const unsigned t = atomicAdd(&g_counter, 1u);
        if (t == (unsigned)tiles - 1u) atomicExch(&g_counter, 0u);  // the last draw of this call: ready for the next
        s_tile = t;
    }
    __syncthreads();
    const int tile = (int)s_tile;
    const long long wbase = (long long)tile * kTile + (long long)warp * kWarpItems;  // this warp's first element

    // v[k] holds elements wbase + 4 (32 k + lane) + 0..3.
    uint4 v[kVecs];
    const bool full = aligned && wbase + kWarpItems <= n;
    if (full) {
        const uint4* p = reinterpret_cast<const uint4*>(in + wbase) + lane;
#pragma unroll
        for (int k = 0; k < kVecs; ++k) v[k] = __ldg(p + 32 * k);
    } else {
#pragma unroll
        for (int k = 0; k < kVecs; ++k) {
            const long long e = wbase + 4LL * (32 * k + lane);
            v[k].x = e + 0 < n ? (unsigned)in[e + 0] : 0u;
            v[k].y = e + 1 < n ? (unsigned)in[e + 1] : 0u;
            v[k].z = e + 2 < n ? (unsigned)in[e + 2] : 0u;
            v[k].w = e + 3 < n ? (unsigned)in[e + 3] : 0u;
        }
    }

    // Inside each vector, then across the lanes column by column, then the columns in order.
    unsigned s[kVecs];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
        v[k].y += v[k].x;
        v[k].z += v[k].y;
        v[k].w += v[k].z;
        s[k] = v[k].w;
    }
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
#pragma unroll
        for (int k = 0; k < kVecs; ++k) {
            const unsigned u = __shfl_up_sync(kFull, s[k], d);
            if (lane >= d) s[k] += u;
        }
    }
    unsigned carry = 0;  // the warp's elements in columns before k
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
        const unsigned before = carry + s[k] - v[k].w;  // everything of the warp before vector (k, lane)
        carry += __shfl_sync(kFull, s[k], 31);
        v[k].x += before;
        v[k].y += before;
        v[k].z += before;
        v[k].w += before;
        s_data[warp][k][lane] = v[k];  // only this lane reads it back: no barrier needed for it
    }
    if (lane == 0) s_warp[warp] = carry;  // the warp's total
    __syncthreads();
    unsigned warp_prefix = 0, aggregate = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
        if (w == warp) warp_prefix = aggregate;
        aggregate += s_warp[w];
    }

    // Decoupled look-back (warp 0): the total of every tile before this one.
    if (warp == 0) {
        volatile unsigned long long* vdesc = g_desc;
        unsigned prefix = 0;
        if (tile == 0) {
            if (lane == 0) vdesc[0] = make_desc(kInclusive, epoch, aggregate);
        } else {
            if (lane == 0) vdesc[tile] = make_desc(kAggregate, epoch, aggregate);
            prefix = look_back(vdesc, tile, epoch, lane);
            if (lane == 0) vdesc[tile] = make_desc(kInclusive, epoch, prefix + aggregate);
        }
        if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();

    const unsigned add = s_prefix + warp_prefix;
#pragma unroll
    for (int k = 0; k < kVecs; ++k) v[k] = s_data[warp][k][lane];
    if (full) {
        uint4* p = reinterpret_cast<uint4*>(out + wbase) + lane;
#pragma unroll
        for (int k = 0; k < kVecs; ++k)
            p[32 * k] = make_uint4(v[k].x + add, v[k].y + add, v[k].z + add, v[k].w + add);
    } else {
#pragma unroll
        for (int k = 0; k < kVecs; ++k) {
            const long long e = wbase + 4LL * (32 * k + lane);
            if (e + 0 < n) out[e + 0] = (int)(v[k].x + add);
            if (e + 1 < n) out[e + 1] = (int)(v[k].y + add);
            if (e + 2 < n) out[e + 2] = (int)(v[k].z + add);
            if (e + 3 < n) out[e + 3] = (int)(v[k].w + add);
        }
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N) {
    static unsigned epoch = 0;  // 1 .. 2^30 - 1, a new one every call; the descriptors start at 0, never an epoch
    if (epoch == 0)  // 6 blocks x 24 KiB of shared memory per SM: ask for the largest carveout
        cudaFuncSetAttribute(scan, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    epoch = epoch % kEpochMask + 1u;
    const int tiles = (int)(((long long)N + kTile - 1) / kTile);
    const bool aligned = reinterpret_cast<uintptr_t>(input) % 16 == 0 && reinterpret_cast<uintptr_t>(output) % 16 == 0;
    scan<<<tiles, kThreads>>>(input, output, N, tiles, epoch, aligned);
}
