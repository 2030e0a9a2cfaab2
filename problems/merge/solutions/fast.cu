// merge fast reference: merge path (Odeh et al., 2012; Green et al., 2012). Must get AC; sets the fast end of the
// score scale.
//   1. partition: one thread per tile boundary k = t * kTile finds its co-rank (how many of the first k outputs come
//      from A) by binary search along the merge path's cross diagonal, in global memory: every tile's bounds at
//      once, so no block waits through ~27 dependent global reads of its own.
//   2. merge_tiles: a block of 256 threads takes one tile of kTile = 256 * kItems outputs, i.e. A[a0, a1) and
//      B[b0, b1) with (a1 - a0) + (b1 - b0) = kTile.
//      - A tile that takes all its outputs from one input (nearly every tile when one array is much longer than the
//        other) is a plain copy, global to global, with 16-byte loads and stores: each warp copies its own
//        contiguous 32 * kItems outputs; where the source is not 16-byte aligned (a0 not a multiple of 4) the
//        warp loads the aligned 16-byte vectors around it and each lane takes the missing words from the next
//        lane's vector with a shuffle. No shared memory, no barrier.
//      - Otherwise each thread first issues all kItems of its loads (coalesced: word q * 256 + tid of the tile's A
//        slice followed by its B slice, the pointer chosen per word), so they are all in flight at once, and only
//        then writes them to shared memory. After one barrier each thread finds the co-rank of its kItems outputs
//        inside the tile (binary search in shared memory) and merges them sequentially, keeping the head of each
//        side in a register so that every output costs one shared-memory read, and writes each output to a second
//        shared buffer at kItems * tid + q (kItems is odd: the 32 lanes hit 32 different banks). A warp's
//        32 * kItems outputs are written by its own lanes, so after a __syncwarp the warp copies them to C as
//        16-byte vectors, 512 contiguous bytes per store instruction (scalar words for the last tile or a C not
//        16-byte aligned).
// Ties are taken from A first (either side would do: equal keys are indistinguishable).
// Measured on the H200 (`judge bench merge`, device time): equal-2^27 661.7 us against CUB's DeviceMerge
// 638.0 us (0.96x), skewed-2^27-2^10 301.3 against 281.0 us (0.93x); the version before (blocked stores straight to
// global memory, each thread's loads waiting one by one) took 1007 and 548 us.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 15;  // outputs per thread: odd, so per-thread blocked shared-memory writes are conflict-free
constexpr int kTile = kThreads * kItems;  // a multiple of 4: tile starts in C stay 16-byte aligned
constexpr int kWarpItems = 32 * kItems;   // a multiple of 4: so do the warps' pieces
constexpr int kMaxTiles = (1 << 28) / kTile + 2;
// 7 blocks of 256 per SM: what 2 x 15 KiB of shared memory per block allows; asks ptxas for 32 registers.
constexpr int kMinBlocks = 7;
constexpr int kInWords = kTile + 1;  // the tile's inputs, plus one word read past the end of B

static_assert(kItems % 2 == 1, "odd kItems keeps the blocked shared-memory writes conflict-free");

__device__ int g_split[kMaxTiles + 1];  // co-rank of every tile boundary (at most 2^28: fits int)

// The largest i in [max(0, k - n), min(k, m)] with a[i - 1] <= b[k - i]: how many of the first k merged come from a.
__device__ __forceinline__ int co_rank(int k, const int* __restrict__ a, int m, const int* __restrict__ b, int n) {
    int lo = k - n > 0 ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        const int i = (lo + hi + 1) >> 1;
        if (__ldg(a + i - 1) <= __ldg(b + k - i)) lo = i;
        else hi = i - 1;
    }
    return lo;
}

__global__ void partition(const int* __restrict__ A, int M, const int* __restrict__ B, int N, int tiles,
                          int* __restrict__ split) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles) return;
    const long long kk = (long long)t * kTile;
    const int k = kk < (long long)M + N ? (int)kk : M + N;
    split[t] = co_rank(k, A, M, B, N);
}

// dst[0, n) = X[x0, x0 + n): a tile taken whole from one input (X has xn elements). vec_ok: X and dst 16-byte aligned.
__device__ __forceinline__ void copy_tile(const int* __restrict__ X, int x0, int xn, int* __restrict__ dst, int n,
                                          bool vec_ok) {
    const int r = x0 & 3;
    if (vec_ok && n == kTile && x0 - r + kTile + (r ? 4 : 0) <= xn) {
        constexpr int kWV = kWarpItems / 4;       // 16-byte vectors per warp
        constexpr int kR = (kWV + 1 + 31) / 32;   // rounds: a misaligned source needs one vector more
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        const int4* s4 = reinterpret_cast<const int4*>(X + (x0 - r)) + warp * kWV;
        int4* d4 = reinterpret_cast<int4*>(dst) + warp * kWV;
        const int lim = r ? kWV + 1 : kWV;
        int4 v[kR];
#pragma unroll
        for (int j = 0; j < kR; ++j) {
            const int c = j * 32 + lane;
            v[j] = c < lim ? __ldg(s4 + c) : make_int4(0, 0, 0, 0);
        }
        if (r == 0) {
#pragma unroll
            for (int j = 0; j < kR; ++j) {
                const int c = j * 32 + lane;
                if (c < kWV) d4[c] = v[j];
            }
        } else {
            // Output vector c is words r..3 of source vector c and words 0..r-1 of vector c + 1, which the next lane
            // holds (lane 31: lane 0 of the next round; the last round's lane 31 stores nothing).
            const int src = (lane + 1) & 31;
#pragma unroll
            for (int j = 0; j < kR; ++j) {
                const int4 send = (lane == 0 && j + 1 < kR) ? v[j + 1] : v[j];
                int4 nx;
                nx.x = __shfl_sync(0xffffffffu, send.x, src);
                nx.y = __shfl_sync(0xffffffffu, send.y, src);
                nx.z = __shfl_sync(0xffffffffu, send.z, src);
                const int4 cur = v[j];
                int4 o;
                if (r == 1) o = make_int4(cur.y, cur.z, cur.w, nx.x);
                else if (r == 2) o = make_int4(cur.z, cur.w, nx.x, nx.y);
                else o = make_int4(cur.w, nx.x, nx.y, nx.z);
                const int c = j * 32 + lane;
                if (c < kWV) d4[c] = o;
            }
        }
    } else {
        int v[kItems];
#pragma unroll
        for (int q = 0; q < kItems; ++q) {
            const int e = q * kThreads + threadIdx.x;
            if (e < n) v[q] = __ldg(X + x0 + e);
        }
#pragma unroll
        for (int q = 0; q < kItems; ++q) {
            const int e = q * kThreads + threadIdx.x;
            if (e < n) dst[e] = v[q];
        }
    }
}

// The merge proper, once the tile's inputs are in s_in: A part s_in[a_beg, a_beg + a_len), B part
// s_in[b_beg, b_beg + b_len); s_in[a_beg + a_len] and s_in[b_beg + b_len] are readable (never used).
template <bool kFull>
__device__ __forceinline__ void merge_from_shared(const int* s_in, int a_beg, int a_len, int b_beg, int len,
                                                  int* __restrict__ Ck, bool c_aligned, int* s_out) {
    const int b_len = len - a_len, a_end = a_beg + a_len, b_end = b_beg + b_len;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int d = threadIdx.x * kItems;  // this thread's first output inside the tile
    if (kFull || d < len) {
        int lo = d - b_len > 0 ? d - b_len : 0, hi = d < a_len ? d : a_len;
        while (lo < hi) {
            const int i = (lo + hi + 1) >> 1;
            if (s_in[a_beg + i - 1] <= s_in[b_beg + d - i]) lo = i;
            else hi = i - 1;
        }
        int ia = a_beg + lo, ib = b_beg + d - lo;  // cursors, as indices into s_in
        int ka = s_in[ia], kb = s_in[ib];         // heads
        const int cnt = kFull ? kItems : (len - d < kItems ? len - d : kItems);
#pragma unroll
        for (int q = 0; q < kItems; ++q) {
            if (kFull || q < cnt) {
                const bool take_b = ib < b_end && (ia >= a_end || kb < ka);
                s_out[d + q] = take_b ? kb : ka;
                const int idx = take_b ? ++ib : ++ia;  // at most a_end / b_end: both sides cannot run out early
                const int nv = s_in[idx];
                if (take_b) kb = nv;
                else ka = nv;
            }
        }
    }
    __syncwarp();
    // The warp's outputs s_out[w * kWarpItems, (w + 1) * kWarpItems) were all written by its own lanes.
    const int w0 = warp * kWarpItems;
    if (kFull && c_aligned) {
        const int4* s4 = reinterpret_cast<const int4*>(s_out + w0);
        int4* c4 = reinterpret_cast<int4*>(Ck + w0);
#pragma unroll
        for (int j = 0; j < (kWarpItems / 4 + 31) / 32; ++j) {
            const int c = j * 32 + lane;
            if (c < kWarpItems / 4) c4[c] = s4[c];
        }
    } else {
        for (int e = lane; e < kWarpItems && w0 + e < len; e += 32) Ck[w0 + e] = s_out[w0 + e];
    }
}

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    merge_tiles(const int* __restrict__ A, int M, const int* __restrict__ B, int N, int* __restrict__ C, bool c_aligned,
                bool ab_aligned, const int* __restrict__ split) {
    // All indices fit int: M + N <= 2^28.
    __shared__ __align__(16) int s_in[kInWords];
    __shared__ __align__(16) int s_out[kTile];
    const int total = M + N, k0 = blockIdx.x * kTile;
    const int len = total - k0 < kTile ? total - k0 : kTile;
    const int a0 = split[blockIdx.x], b0 = k0 - a0;
    const int a_len = split[blockIdx.x + 1] - a0;
    int* Ck = C + k0;
    if (a_len == len) {  // the whole tile is A[a0, a0 + len): copy (block-uniform branch, before any barrier)
        copy_tile(A, a0, M, Ck, len, c_aligned && ab_aligned);
        return;
    }
    if (a_len == 0) {  // the whole tile is B[b0, b0 + len)
        copy_tile(B, b0, N, Ck, len, c_aligned && ab_aligned);
        return;
    }
    // Word e of the tile is A[a0 + e] for e < a_len, else B[b0 + e - a_len]: all loads first, then the stores.
    int v[kItems];
#pragma unroll
    for (int q = 0; q < kItems; ++q) {
        const int e = q * kThreads + threadIdx.x;
        if (e < len) v[q] = __ldg(e < a_len ? A + a0 + e : B + b0 + (e - a_len));
    }
#pragma unroll
    for (int q = 0; q < kItems; ++q) {
        const int e = q * kThreads + threadIdx.x;
        if (e < len) s_in[e] = v[q];
    }
    if (threadIdx.x == 0) s_in[len] = 0;  // read (never used) when a cursor reaches the end of B
    __syncthreads();
    if (len == kTile) merge_from_shared<true>(s_in, 0, a_len, a_len, len, Ck, c_aligned, s_out);
    else merge_from_shared<false>(s_in, 0, a_len, a_len, len, Ck, c_aligned, s_out);
}

}  // namespace

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;  // nothing to write, and a grid of zero blocks would be an error
    static int* split = nullptr;
    if (!split) {
        cudaGetSymbolAddress(reinterpret_cast<void**>(&split), g_split);
        cudaFuncSetAttribute(merge_tiles, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared);
    }
    const int tiles = (int)((total + kTile - 1) / kTile);
    partition<<<(tiles + 1 + 255) / 256, 256>>>(A, M, B, N, tiles, split);
    const auto al = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
    const bool c_al = al(C), ab_al = al(A) && al(B);  // a null pointer (empty input) counts as aligned
    merge_tiles<<<tiles, kThreads>>>(A, M, B, N, C, c_al, ab_al, split);
}
