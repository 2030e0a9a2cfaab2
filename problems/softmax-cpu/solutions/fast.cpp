// softmax-cpu fast reference: OpenMP online softmax (one read pass for max+sum, one write pass), vectorised float exp. Must get AC; sets the fast end of the score scale.
//
// Pass 1: each thread walks its contiguous range in blocks of 4096 floats. For a block it
// takes the block max, raises its running max m if needed (rescaling its running sum s by
// exp(m_old - m_new)), then adds the block's sum of exp(x - m) -- computed in float, the
// block is still in L1 -- into the double s. Threads are then combined:
// M = max m_t, S = sum s_t * exp(m_t - M).
// Pass 2: output[i] = exp(input[i] - M) * (1 / S); an output of 64 MiB or more by non-temporal stores
// (write_streaming), which skip the read for ownership that a plain store makes of each line.
// Both exp loops use fexp() below, a branch-free polynomial exp the compiler vectorises
// (glibc's vector expf is only used under -ffast-math). Relative error ~1e-7, far below
// the 1e-3 tolerance.
// Measured on the H200's 16-core host: judged as a submission beside the version with plain stores,
// 0.88x its time at n100M and 0.95x at n16M (medians of 10 and 20 paired runs; intervals 0.71-1.11 and 0.89-1.06).
// `judge bench softmax-cpu` then gave n100M 19.15 ms, 77% of a copy bandwidth measured at 80.9 GB/s in that run,
// where the run before gave the plain stores 18.90 ms, 67% of 94.2 GB/s: the host's own bandwidth moved more than
// the two versions differ.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <immintrin.h>
#include <omp.h>

namespace {

constexpr int kBlock = 4096;
constexpr long kStreamBytes = 64l << 20;  // outputs from 64 MiB up are streamed (n16M and n100M; not n1M)
#ifdef __AVX__
constexpr long kStoreBytes = 32;
#else
constexpr long kStoreBytes = 16;
#endif

#ifdef __FMA__
#define FMA(a, b, c) std::fma(a, b, c)
#else
#define FMA(a, b, c) ((a) * (b) + (c))  // no hardware FMA: avoid the slow libm fma()
#endif

// exp(x) for x <= 0. Arguments below -87 are clamped (exp(-87) ~ 1.6e-38, still a normal
// float); the true result there is < 1e-37 of the largest term, far below the tolerance.
#pragma omp declare simd notinbranch
inline float fexp(float x) {
    x = std::max(x, -87.0f);
    const float t = x * 1.44269504088896341f;              // x / ln 2
    const float n = (t + 12582912.0f) - 12582912.0f;       // round to nearest (1.5 * 2^23 trick)
    float r = FMA(n, -0.693359375f, x);                    // x - n ln2, Cody-Waite in two parts
    r = FMA(n, 2.12194440e-4f, r);                         // (n * 0.693359375 is exact)
    // exp(r) on |r| <= ln2/2: degree-6 Taylor, relative error < 2e-7.
    float p = 1.0f / 720.0f;
    p = FMA(p, r, 1.0f / 120.0f);
    p = FMA(p, r, 1.0f / 24.0f);
    p = FMA(p, r, 1.0f / 6.0f);
    p = FMA(p, r, 0.5f);
    p = FMA(p, r, 1.0f);
    p = FMA(p, r, 1.0f);
    const int32_t bits = ((int32_t)n + 127) << 23;          // 2^n, n in [-126, 0]
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

// Max of x[0..len). GCC does not vectorise a float max *reduction* without -ffast-math, so
// keep 32 independent lanes: the element-wise max over them vectorises to vmaxps.
inline float block_max(const float* x, int len) {
    constexpr int L = 32;
    float lane[L];
    for (int k = 0; k < L; ++k) lane[k] = -std::numeric_limits<float>::infinity();
    int i = 0;
    for (; i + L <= len; i += L)
        for (int k = 0; k < L; ++k) lane[k] = x[i + k] > lane[k] ? x[i + k] : lane[k];
    for (; i < len; ++i) lane[0] = x[i] > lane[0] ? x[i] : lane[0];
    float m = lane[0];
    for (int k = 1; k < L; ++k) m = lane[k] > m ? lane[k] : m;
    return m;
}


// Pass 2 for an output larger than the caches: output[lo, hi) written by non-temporal stores, which go to memory
// without first reading each line into the cache (a plain store's read for ownership: 4 more bytes an element
// from memory, where the pass reads 4 and writes 4). A block of kBlock results is made in an L1 buffer by the
// vectorised loop, then streamed out in 32-byte (16-byte without AVX) stores; the unaligned ends are plain stores.
// The sfence orders the streamed stores before the thread's return.
void write_streaming(const float* input, float* output, long lo, long hi, float M, float inv) {
    constexpr long kVec = kStoreBytes / (long)sizeof(float);
    long i = lo;
    for (; i < hi && (reinterpret_cast<uintptr_t>(output + i) % kStoreBytes) != 0; ++i)
        output[i] = fexp(input[i] - M) * inv;
    alignas(64) float buf[kBlock];
    while (hi - i >= kVec) {
        const long len = std::min<long>(kBlock, (hi - i) / kVec * kVec);
        const float* __restrict x = input + i;
#pragma omp simd
        for (long k = 0; k < len; ++k) buf[k] = fexp(x[k] - M) * inv;
        for (long k = 0; k < len; k += kVec) {
#ifdef __AVX__
            _mm256_stream_ps(output + i + k, _mm256_load_ps(buf + k));
#else
            _mm_stream_ps(output + i + k, _mm_load_ps(buf + k));
#endif
        }
        i += len;
    }
    for (; i < hi; ++i) output[i] = fexp(input[i] - M) * inv;
    _mm_sfence();
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    constexpr int kMaxThreads = 1024;
    float tmax[kMaxThreads];
    double tsum[kMaxThreads];

    // An output larger than the caches goes out by non-temporal stores (below); a smaller one stays in them.
    const bool stream = (long)N * (long)sizeof(float) >= kStreamBytes;
#pragma omp parallel num_threads(std::min(omp_get_max_threads(), kMaxThreads))
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        // Contiguous, block-aligned range per thread.
        const long nblocks = ((long)N + kBlock - 1) / kBlock;
        const long b0 = nblocks * t / nt, b1 = nblocks * (t + 1) / nt;
        const long lo = std::min<long>(b0 * kBlock, N), hi = std::min<long>(b1 * kBlock, N);

        float m = -std::numeric_limits<float>::infinity();
        double s = 0.0;
        for (long i0 = lo; i0 < hi; i0 += kBlock) {
            const float* x = input + i0;
            const int len = (int)std::min<long>(kBlock, hi - i0);
            const float bm = block_max(x, len);
            if (bm > m) {
                s *= std::exp((double)m - (double)bm);  // 0 on the first block (m = -inf)
                m = bm;
            }
            // The max loop above streamed this block from memory; the sum loop below runs from
            // L1. Prefetch the next block now so its memory traffic overlaps the exp work.
            for (int i = 0; i < len && i0 + kBlock + i < hi; i += 16) __builtin_prefetch(x + kBlock + i, 0, 3);
            float bs = 0.0f;
#pragma omp simd reduction(+ : bs)
            for (int i = 0; i < len; ++i) bs += fexp(x[i] - m);
            s += bs;
        }
        tmax[t] = m;
        tsum[t] = s;
#pragma omp barrier
        float M = -std::numeric_limits<float>::infinity();
        for (int k = 0; k < nt; ++k) M = std::max(M, tmax[k]);
        double S = 0.0;
        for (int k = 0; k < nt; ++k)
            if (tsum[k] > 0.0) S += tsum[k] * std::exp((double)tmax[k] - (double)M);
        const float inv = (float)(1.0 / S);

        if (stream) {
            write_streaming(input, output, lo, hi, M, inv);
        } else {
            float* __restrict y = output;
#pragma omp simd
            for (long i = lo; i < hi; ++i) y[i] = fexp(input[i] - M) * inv;
        }
    }
}
