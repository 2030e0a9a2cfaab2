// flash-attention fast reference: FlashAttention-2-style tiled attention in plain FP32 (FMA on the CUDA cores, no
// tensor cores, so FP32-accurate). Must get AC; sets the fast end of the score scale.
//   - One block of 128 threads per (tile of BQ query rows, head). The block stages its Q tile in shared memory once,
//     then walks over the keys in tiles of BKV: S = Q K^T for the tile, an online-softmax update (running row max m
//     and row sum l; the accumulator is rescaled by exp2(m_old - m_new) when the max grows), then O += P V. The N x N
//     score matrix never exists: only a BQ x BKV tile of it, in registers and shared memory.
//   - Threads form a 16 x 8 grid: rg = tid / 8 (row group), cg = tid % 8 (column group). Thread (rg, cg) owns query
//     rows rg + 16 i (i < RM), keys cg + 8 k of each tile (k < KN) and output columns cg*4 + 32 q .. +3 (q < DK/32).
//     So the 8 threads sharing a row are 8 consecutive lanes: row max and row sum are reduced with 3 shuffles; and
//     every shared-memory read of a warp touches at most 128 distinct bytes spread over all 32 banks (Q rows are
//     broadcast, K rows are padded to DK + 4 floats, V columns are consecutive float4s).
//   - P goes through shared memory transposed (Ps[key][slot]); thread (rg, cg) writes row rg + 16 i to slot
//     rg*RM + i, so in O += P V its own RM probabilities for one key are one or two float4 reads.
//   - Scores are scaled once into the base-2 domain: c = log2(e) / sqrt(d_k), m is kept as max(s) * c and
//     p = exp2(fma(s, c, -m)): one FMA and one MUFU.EX2 per score, with the maximum subtracted exactly inside the FMA.
//   - cp.async (16-byte, zero-filled past row N) overlaps the loads with the math using single buffers: V of this
//     tile is fetched while S is computed, and K of the next tile while O += P V runs. Two barriers per tile.
//   - d_k = 64: RM = 8, KN = 8 (BQ = 128, BKV = 64), 100 KB of shared memory, 2 blocks per SM, 64 score + 64 output
//     accumulators per thread (ptxas, sm_90: 245 registers, no spills). d_k = 128: RM = 4, KN = 4 (BQ = 64,
//     BKV = 32), 74 KB, 3 blocks per SM, 16 score + 64 output accumulators (168 registers, no spills).
//   - Any other d_k (or misaligned pointers) takes a generic, slower kernel: one warp per (query row, head), keys in
//     chunks of 32 (one per lane), outputs lane-strided over d_k in registers (d_k <= 1024).
#include <cmath>
#include <cstdint>

namespace {

constexpr int kThreads = 128;
constexpr int RG = 16;  // row groups
constexpr int CG = 8;   // column groups (lanes sharing a row)

__device__ __forceinline__ void cp_async16(float* smem_dst, const float* gmem_src, int src_bytes) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem_src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

template <int DK, int RM, int KN>
struct Tile {
    static constexpr int BQ = RG * RM;        // query rows per block
    static constexpr int BKV = CG * KN;       // keys per tile
    static constexpr int KS = DK + 4;         // padded row of Qs and Ks (floats): 4 banks further per row
    static constexpr int PS = BQ + 4;         // padded row of Ps
    static constexpr int DQ = DK / 32;        // float4 output columns per thread
    static constexpr int smem_floats = BQ * KS + BKV * KS + BKV * DK + BKV * PS;
    static constexpr int smem_bytes = smem_floats * 4;
    static_assert(DK % 32 == 0 && RM % 4 == 0, "float4 layout");
};

// Copies `rows` rows of DK floats (the head's columns) from row0 on into dst (row stride `stride` floats); rows at
// or past N are zero-filled (a 0-byte copy from a valid address).
template <int DK, int ROWS>
__device__ __forceinline__ void load_tile(float* dst, int stride, const float* __restrict__ src, int row0, int N,
                                          int d_model, int col0) {
    constexpr int C4 = DK / 4;  // float4s per row
    static_assert((ROWS * C4) % kThreads == 0, "whole float4s per thread");
#pragma unroll
    for (int l = 0; l < ROWS * C4 / kThreads; ++l) {
        const int idx = threadIdx.x + l * kThreads;
        const int r = idx / C4, c = (idx % C4) * 4;
        const int gr = row0 + r;
        const float* p = src + (long long)min(gr, N - 1) * d_model + col0 + c;
        cp_async16(dst + r * stride + c, p, gr < N ? 16 : 0);
    }
}

template <int DK, int RM, int KN, int MIN_BLOCKS>
__global__ void __launch_bounds__(kThreads, MIN_BLOCKS)
    flash_fwd(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
              float* __restrict__ O, int N, int d_model, float c) {
    using T = Tile<DK, RM, KN>;
    constexpr int BQ = T::BQ, BKV = T::BKV, KS = T::KS, PS = T::PS, DQ = T::DQ;
    extern __shared__ __align__(16) float smem[];
    float* Qs = smem;               // [BQ][KS]   query rows of this block
    float* Ks = Qs + BQ * KS;       // [BKV][KS]  key rows of the current tile
    float* Vs = Ks + BKV * KS;      // [BKV][DK]  value rows of the current tile
    float* Ps = Vs + BKV * DK;      // [BKV][PS]  probabilities, transposed: Ps[key][slot]

    const int tid = threadIdx.x;
    const int cg = tid % CG, rg = tid / CG;
    const int q0 = blockIdx.x * BQ;
    const int col0 = blockIdx.y * DK;  // this head's first column

    load_tile<DK, BQ>(Qs, KS, Q, q0, N, d_model, col0);
    load_tile<DK, BKV>(Ks, KS, K, 0, N, d_model, col0);
    cp_async_commit();

    float o[RM][4 * DQ];  // o[i][4q + e]: row rg + 16 i, column cg*4 + 32 q + e
    float m[RM], l[RM];   // running max (times c, base-2 domain) and this thread's part of the running sum
#pragma unroll
    for (int i = 0; i < RM; ++i) {
        m[i] = -INFINITY;
        l[i] = 0.0f;
#pragma unroll
        for (int j = 0; j < 4 * DQ; ++j) o[i][j] = 0.0f;
    }

    for (int kv0 = 0; kv0 < N; kv0 += BKV) {
        cp_async_wait_all();
        __syncthreads();  // K tile (and Q) visible; everyone is done with the previous Vs and Ps
        load_tile<DK, BKV>(Vs, DK, V, kv0, N, d_model, col0);  // lands while S is computed
        cp_async_commit();

        // S = Q K^T for this thread's RM x KN scores, 4 columns of d_k at a time.
        float s[RM][KN];
#pragma unroll
        for (int i = 0; i < RM; ++i)
#pragma unroll
            for (int k = 0; k < KN; ++k) s[i][k] = 0.0f;
#pragma unroll 1  // unrolling further spills at d_k = 64 (8 float4s of K per step are already 32 registers)
        for (int d = 0; d < DK; d += 4) {
            float4 kf[KN];
#pragma unroll
            for (int k = 0; k < KN; ++k) kf[k] = *reinterpret_cast<const float4*>(&Ks[(cg + CG * k) * KS + d]);
#pragma unroll
            for (int i = 0; i < RM; ++i) {
                const float4 qf = *reinterpret_cast<const float4*>(&Qs[(rg + RG * i) * KS + d]);
#pragma unroll
                for (int k = 0; k < KN; ++k) {
                    s[i][k] = fmaf(qf.x, kf[k].x, s[i][k]);
                    s[i][k] = fmaf(qf.y, kf[k].y, s[i][k]);
                    s[i][k] = fmaf(qf.z, kf[k].z, s[i][k]);
                    s[i][k] = fmaf(qf.w, kf[k].w, s[i][k]);
                }
            }
        }
        if (kv0 + BKV > N) {  // last, partial tile: keys past N get probability 0
#pragma unroll
            for (int k = 0; k < KN; ++k)
                if (kv0 + cg + CG * k >= N)
#pragma unroll
                    for (int i = 0; i < RM; ++i) s[i][k] = -INFINITY;
        }

        // Online softmax, row by row. Key kv0 (< N) is in every row's tile, so m_new is finite.
#pragma unroll
        for (int i = 0; i < RM; ++i) {
            float mx = s[i][0];
#pragma unroll
            for (int k = 1; k < KN; ++k) mx = fmaxf(mx, s[i][k]);
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
            const float m_new = fmaxf(m[i], mx * c);  // c > 0: max(s) * c == max(s * c)
            const float alpha = exp2f(m[i] - m_new);  // 0 on the first tile (m = -inf)
            float sum = 0.0f;
#pragma unroll
            for (int k = 0; k < KN; ++k) {
                const float p = exp2f(fmaf(s[i][k], c, -m_new));
                s[i][k] = p;
                sum += p;
            }
            l[i] = fmaf(l[i], alpha, sum);
#pragma unroll
            for (int j = 0; j < 4 * DQ; ++j) o[i][j] *= alpha;
            m[i] = m_new;
        }
        // P^T into shared memory: key cg + 8k, slot rg*RM + i.
#pragma unroll
        for (int k = 0; k < KN; ++k)
#pragma unroll
            for (int i = 0; i < RM; i += 4)
                *reinterpret_cast<float4*>(&Ps[(cg + CG * k) * PS + rg * RM + i]) =
                    make_float4(s[i][k], s[i + 1][k], s[i + 2][k], s[i + 3][k]);

        cp_async_wait_all();
        __syncthreads();  // V tile and all of Ps visible; everyone is done with Ks
        if (kv0 + BKV < N) {
            load_tile<DK, BKV>(Ks, KS, K, kv0 + BKV, N, d_model, col0);  // lands while O += P V runs
            cp_async_commit();
        }

        // O += P V over the tile's keys (p = 0 and V = 0 past N).
#pragma unroll 4
        for (int j = 0; j < BKV; ++j) {
            float p[RM];
#pragma unroll
            for (int i = 0; i < RM; i += 4) {
                const float4 pf = *reinterpret_cast<const float4*>(&Ps[j * PS + rg * RM + i]);
                p[i] = pf.x;
                p[i + 1] = pf.y;
                p[i + 2] = pf.z;
                p[i + 3] = pf.w;
            }
#pragma unroll
            for (int q = 0; q < DQ; ++q) {
                const float4 vf = *reinterpret_cast<const float4*>(&Vs[j * DK + cg * 4 + 32 * q]);
#pragma unroll
                for (int i = 0; i < RM; ++i) {
                    o[i][4 * q + 0] = fmaf(p[i], vf.x, o[i][4 * q + 0]);
                    o[i][4 * q + 1] = fmaf(p[i], vf.y, o[i][4 * q + 1]);
                    o[i][4 * q + 2] = fmaf(p[i], vf.z, o[i][4 * q + 2]);
                    o[i][4 * q + 3] = fmaf(p[i], vf.w, o[i][4 * q + 3]);
                }
            }
        }
    }

    // Normalise by the row sums (the 8 lanes' parts added up) and store.
#pragma unroll
    for (int i = 0; i < RM; ++i) {
        float sum = l[i];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        sum += __shfl_xor_sync(0xffffffffu, sum, 4);
        const float inv = 1.0f / sum;
        const int row = q0 + rg + RG * i;
        if (row < N) {
            float* out = O + (long long)row * d_model + col0 + cg * 4;
#pragma unroll
            for (int q = 0; q < DQ; ++q)
                *reinterpret_cast<float4*>(out + 32 * q) = make_float4(o[i][4 * q] * inv, o[i][4 * q + 1] * inv,
                                                                       o[i][4 * q + 2] * inv, o[i][4 * q + 3] * inv);
        }
    }
}

// Generic path, any d_k <= 1024: one warp per (query row, head), 4 warps per block. The warp takes the keys 32 at a
// time, lane t scoring key base + t; the chunk's max and sum come from shuffles; then lane t updates its outputs
// d = t + 32 u (u < 32) with the chunk's 32 probabilities, broadcast through shared memory.
constexpr int kGenericWarps = 4;
constexpr int kMaxDk = 1024;

__global__ void __launch_bounds__(32 * kGenericWarps)
    attention_generic(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                      float* __restrict__ O, int N, int d_model, int dk, float c) {
    __shared__ float qs[kGenericWarps][kMaxDk];
    __shared__ float ps[kGenericWarps][32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row = blockIdx.x * kGenericWarps + warp;
    if (row >= N) return;  // no block-wide barrier below: only __syncwarp
    const long long col0 = (long long)blockIdx.y * dk;
    for (int d = lane; d < dk; d += 32) qs[warp][d] = Q[(long long)row * d_model + col0 + d];
    __syncwarp();

    float acc[kMaxDk / 32];
#pragma unroll
    for (int u = 0; u < kMaxDk / 32; ++u) acc[u] = 0.0f;
    float m = -INFINITY, l = 0.0f;  // m in the base-2 domain (times c)
    for (int base = 0; base < N; base += 32) {
        const int j = base + lane;
        float s = -INFINITY;
        if (j < N) {
            const float* kr = K + (long long)j * d_model + col0;
            s = 0.0f;
            for (int d = 0; d < dk; ++d) s = fmaf(qs[warp][d], kr[d], s);
        }
        float mx = s;
        for (int off = 16; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
        const float m_new = fmaxf(m, mx * c);
        const float alpha = exp2f(m - m_new);
        const float p = exp2f(fmaf(s, c, -m_new));  // 0 for s = -inf
        float sum = p;
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
        l = fmaf(l, alpha, sum);
        m = m_new;
        __syncwarp();  // the previous chunk's ps reads are done
        ps[warp][lane] = p;
        __syncwarp();
        const int cnt = min(32, N - base);
#pragma unroll
        for (int u = 0; u < kMaxDk / 32; ++u) {
            const int d = lane + 32 * u;
            if (d < dk) {
                float a = acc[u] * alpha;
                const float* vc = V + (long long)base * d_model + col0 + d;
                for (int t = 0; t < cnt; ++t) a = fmaf(ps[warp][t], vc[(long long)t * d_model], a);
                acc[u] = a;
            }
        }
    }
    const float inv = 1.0f / l;
#pragma unroll
    for (int u = 0; u < kMaxDk / 32; ++u) {
        const int d = lane + 32 * u;
        if (d < dk) O[(long long)row * d_model + col0 + d] = acc[u] * inv;
    }
}

template <int DK, int RM, int KN, int MIN_BLOCKS>
void launch_fast(const float* Q, const float* K, const float* V, float* O, int N, int d_model, int h, float c) {
    using T = Tile<DK, RM, KN>;
    static bool configured = false;  // more than 48 KB of dynamic shared memory must be asked for, once
    if (!configured) {
        cudaFuncSetAttribute(flash_fwd<DK, RM, KN, MIN_BLOCKS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             T::smem_bytes);
        configured = true;
    }
    const dim3 grid((N + T::BQ - 1) / T::BQ, h);
    flash_fwd<DK, RM, KN, MIN_BLOCKS><<<grid, kThreads, T::smem_bytes>>>(Q, K, V, O, N, d_model, c);
}

}  // namespace

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
    if (N <= 0 || d_model <= 0 || h <= 0) return;
    const int dk = d_model / h;
    const float c = 1.4426950408889634f / std::sqrt(static_cast<float>(dk));  // log2(e) / sqrt(d_k)
    const bool aligned = ((reinterpret_cast<uintptr_t>(Q) | reinterpret_cast<uintptr_t>(K) |
                           reinterpret_cast<uintptr_t>(V) | reinterpret_cast<uintptr_t>(output)) & 15) == 0;
    if (aligned && dk == 64) {
        launch_fast<64, 8, 8, 2>(Q, K, V, output, N, d_model, h, c);
    } else if (aligned && dk == 128) {
        launch_fast<128, 4, 4, 3>(Q, K, V, output, N, d_model, h, c);
    } else {
        const dim3 grid((N + kGenericWarps - 1) / kGenericWarps, h);
        attention_generic<<<grid, 32 * kGenericWarps>>>(Q, K, V, output, N, d_model, dk, c);
    }
}
