// vendor anchor for make bench: multi-head attention as the best FP32 composite of vendor pieces, S = Q_h·K_hᵀ/√d_k
// with cublasSgemmStridedBatched, a numerically stable row softmax (our kernel), then O = P·V_h with
// cublasSgemmStridedBatched. Not a score end point: it is timed beside the baseline and fast references to show what
// "cuBLAS plus a softmax" gets on this GPU, the textbook unfused attention that FlashAttention is measured against.
//   - Why this is the right anchor: cuBLAS has no fused FP32 attention (cuDNN's fused attention is FP16/BF16/FP8
//     only), so the best a vendor-library user gets in true FP32 is two batched SGEMMs around a softmax. Pedantic
//     math (CUBLAS_PEDANTIC_MATH) keeps both GEMMs in FP32 FMA: no TF32 and no BF16x9 emulation, either of which
//     would change the problem (TF32 scores fail the tolerance).
//   - Heads are interleaved by column: head i owns columns i·d_k … (i+1)·d_k−1 of each N×d_model row-major matrix.
//     In cuBLAS's column-major view a row-major X is Xᵀ (d_model × N, ld d_model), so head i of X is the d_k×N
//     block starting at X + i·d_k: all heads are one strided batch with ld = d_model and batch stride d_k, no
//     copies. For query rows r0 … r0+rc−1 and heads g0 … g0+gc−1:
//       Sᵀ (N × rc, ld N)       = K_h · Q_hᵀ · (1/√d_k)     cublasSgemmStridedBatched(T, N, N, rc, d_k, ...)
//                                 (cuBLAS sees K_hᵀ, d_k × N, and transposes it)
//       each of the gc·rc rows of S (N contiguous floats) goes through softmax in place
//       O_hᵀ (d_k × rc, ld d_model) = V_hᵀ · Pᵀ         cublasSgemmStridedBatched(N, N, d_k, rc, N, ...)
//     The second GEMM writes straight into `output` (ldc = d_model, stride d_k): every element of the output is
//     written exactly once, by the head and the row chunk that own it.
//   - Chunking, and why: the full S of all heads is N·N·h floats, 1 GiB at N = 4,096, h = 16, and the judge's
//     device-memory limit for this problem is 4·N·d_model·4 bytes + 16 MiB (80 MiB there). So S lives in a scratch
//     of at most 48 MiB (and at most 3/4 of this case's limit less 1 MiB: 11.25 MiB on the smallest tests), and the
//     queries are processed in chunks of rc rows whose S (rc × N × gc floats) fits it, one pair of batched GEMMs per
//     chunk; the chunks are balanced (equal sizes but the last). When one query row of all heads (N·h floats) does
//     not fit (N = 16,384 with more than 768 heads), the heads are also split into groups of gc.
//   - Memory: the handle, a cuBLAS workspace (ours, via cublasSetWorkspace, so the judge counts it: up to 32 MiB,
//     NVIDIA's recommended size for Hopper, and never more than this case's limit leaves beside the scratch) and
//     the scratch are function-local statics, created on the first call and reused. The scratch is reallocated
//     only when a call needs a larger one or holding it would exceed this case's budget; the workspace only when
//     this case's budget gives it another size. The old buffer is freed first, so what is held never exceeds the
//     current case's limit, and the timed calls of a case, which all have its shape, allocate nothing. cuBLAS's internal allocations (its private, statically linked CUDA runtime)
//     are invisible to the judge.
//   - Softmax: one block per row: the max (the row is read once, into shared memory: up to 16,384 floats = 64 KiB;
//     longer rows are re-read from global memory), then the sum of exp(x − max) (the exponentials kept in shared
//     memory), then exp(x − max) · (1/sum) is written back. No exp argument is positive, so large scores cannot
//     overflow.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kMaxScratch = 48 * kMiB;     // S of one chunk, all its heads
constexpr size_t kMaxWorkspace = 32 * kMiB;   // cuBLAS workspace
constexpr size_t kMargin = 1 * kMiB;          // left unused below the judge's limit
constexpr int kMaxCachedRow = 16384;          // floats of a row kept in shared memory (64 KiB)

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// The max (kMax) or the sum of v over the block; every thread gets the result. red holds 33 floats.
template <bool kMax>
__device__ float block_reduce(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    v = kMax ? warp_max(v) : warp_sum(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float x = lane < warps ? red[lane] : (kMax ? -INFINITY : 0.0f);
        x = kMax ? warp_max(x) : warp_sum(x);
        if (lane == 0) red[32] = x;
    }
    __syncthreads();
    const float r = red[32];
    __syncthreads();  // red may be reused by the next reduction
    return r;
}

// Softmax of each row of S (rows of n contiguous floats), in place; one block per row, blockDim.x a multiple of 32.
// kCache: the row is staged in dynamic shared memory (n floats), so global memory is read and written once.
template <bool kCache>
__global__ void softmax_rows(float* __restrict__ S, int n) {
    extern __shared__ __align__(16) float cache[];
    __shared__ float red[33];
    float* row = S + static_cast<size_t>(blockIdx.x) * n;
    const int t = threadIdx.x, T = blockDim.x;
    const bool vec = (n & 3) == 0;  // rows start 16-byte aligned (the scratch is cudaMalloc'd, n % 4 == 0)

    float m = -INFINITY;
    if (vec) {
        const float4* r4 = reinterpret_cast<const float4*>(row);
        for (int i = t; i < n / 4; i += T) {
            const float4 x = r4[i];
            if (kCache) reinterpret_cast<float4*>(cache)[i] = x;
            m = fmaxf(m, fmaxf(fmaxf(x.x, x.y), fmaxf(x.z, x.w)));
        }
    } else {
        for (int i = t; i < n; i += T) {
            const float x = row[i];
            if (kCache) cache[i] = x;
            m = fmaxf(m, x);
        }
    }
    m = block_reduce<true>(m, red);  // also the barrier after the cache is filled

    float s = 0.0f;
    if (kCache) {  // the exponentials replace the scores in the cache
        for (int i = t; i < n; i += T) {
            const float e = expf(cache[i] - m);
            cache[i] = e;
            s += e;
        }
    } else {
        for (int i = t; i < n; i += T) s += expf(row[i] - m);
    }
    const float inv = 1.0f / block_reduce<false>(s, red);  // also the barrier after the cache is rewritten

    if (kCache && vec) {
        const float4* c4 = reinterpret_cast<const float4*>(cache);
        float4* r4 = reinterpret_cast<float4*>(row);
        for (int i = t; i < n / 4; i += T) {
            const float4 e = c4[i];
            r4[i] = make_float4(e.x * inv, e.y * inv, e.z * inv, e.w * inv);
        }
    } else if (kCache) {
        for (int i = t; i < n; i += T) row[i] = cache[i] * inv;
    } else {
        for (int i = t; i < n; i += T) row[i] = expf(row[i] - m) * inv;
    }
}

struct State {
    cublasHandle_t handle = nullptr;
    bool ok = false;
    void* workspace = nullptr;
    size_t workspace_bytes = 0;
    float* scratch = nullptr;
    size_t scratch_bytes = 0;
    State() {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return;
        if (cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) return;
        cudaFuncSetAttribute(softmax_rows<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(sizeof(float) * kMaxCachedRow));
        ok = true;
    }
};

size_t round_down_256(size_t x) { return x / 256 * 256; }

}  // namespace

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h) {
    static State st;  // created on the first call (a functional test, untimed), reused by every later one
    if (!st.ok || N <= 0 || d_model <= 0 || h <= 0) return;
    const int dk = d_model / h;
    const size_t n = static_cast<size_t>(N);

    // This case's budget: the judge's limit (4·N·d_model·4 bytes + 16 MiB) less a margin.
    const size_t budget = 16 * n * static_cast<size_t>(d_model) + 16 * kMiB - kMargin;
    const size_t scratch_cap = std::min(kMaxScratch, round_down_256(budget / 4 * 3));
    const size_t workspace_want = std::min(kMaxWorkspace, round_down_256(budget - scratch_cap));

    // Heads per group (all of them unless one query row of all heads outgrows the scratch), then rows per chunk.
    const size_t row_bytes = sizeof(float) * n;  // one query row of one head: N scores
    int g = static_cast<int>(std::min<size_t>(h, std::max<size_t>(1, scratch_cap / row_bytes)));
    const int groups = (h + g - 1) / g;
    g = (h + groups - 1) / groups;
    int r = static_cast<int>(std::min<size_t>(n, std::max<size_t>(1, scratch_cap / (row_bytes * g))));
    const int chunks = (N + r - 1) / r;
    r = (N + chunks - 1) / chunks;
    const size_t scratch_need = row_bytes * static_cast<size_t>(g) * static_cast<size_t>(r);

    // Free what is the wrong size first, so what is held never exceeds this case's limit.
    if (st.workspace && st.workspace_bytes != workspace_want) {
        cudaFree(st.workspace);  // synchronises: cuBLAS is done with it
        st.workspace = nullptr;
        st.workspace_bytes = 0;
    }
    if (st.scratch && (st.scratch_bytes < scratch_need || st.scratch_bytes > scratch_cap)) {
        cudaFree(st.scratch);
        st.scratch = nullptr;
        st.scratch_bytes = 0;
    }
    if (!st.workspace) {
        if (cudaMalloc(&st.workspace, workspace_want) != cudaSuccess) {
            st.workspace = nullptr;
            return;
        }
        if (cublasSetWorkspace(st.handle, st.workspace, workspace_want) != CUBLAS_STATUS_SUCCESS) {
            cudaFree(st.workspace);
            st.workspace = nullptr;
            return;
        }
        st.workspace_bytes = workspace_want;
    }
    if (!st.scratch) {
        if (cudaMalloc(&st.scratch, scratch_need) != cudaSuccess) {
            st.scratch = nullptr;
            return;
        }
        st.scratch_bytes = scratch_need;
    }

    const float scale = 1.0f / std::sqrt(static_cast<float>(dk)), one = 1.0f, zero = 0.0f;
    const bool cache = N <= kMaxCachedRow;
    const int threads = N >= 4096 ? 512 : N >= 1024 ? 256 : 128;
    const size_t smem = cache ? sizeof(float) * n : 0;
    float* S = st.scratch;
    for (int g0 = 0; g0 < h; g0 += g) {
        const int gc = std::min(g, h - g0);
        const long long col0 = static_cast<long long>(g0) * dk;  // the group's first column
        for (int r0 = 0; r0 < N; r0 += r) {
            const int rc = std::min(r, N - r0);
            const long long s_stride = static_cast<long long>(rc) * N;  // one head's rc × N scores
            const float* q = Q + static_cast<long long>(r0) * d_model + col0;
            // Sᵀ (N × rc, ld N) = K_h · Q_hᵀ / √d_k, for gc heads: S[head][query][key], rows contiguous.
            cublasSgemmStridedBatched(st.handle, CUBLAS_OP_T, CUBLAS_OP_N, N, rc, dk, &scale, K + col0, d_model, dk,
                                      q, d_model, dk, &zero, S, N, s_stride, gc);
            if (cache)
                softmax_rows<true><<<gc * rc, threads, smem>>>(S, N);
            else
                softmax_rows<false><<<gc * rc, threads>>>(S, N);
            // O_hᵀ (d_k × rc, ld d_model) = V_hᵀ (d_k × N, ld d_model) · Pᵀ (N × rc, ld N), straight into output.
            cublasSgemmStridedBatched(st.handle, CUBLAS_OP_N, CUBLAS_OP_N, dk, rc, N, &one, V + col0, d_model, dk, S,
                                      N, s_stride, &zero, output + static_cast<long long>(r0) * d_model + col0,
                                      d_model, dk, gc);
        }
    }
}
