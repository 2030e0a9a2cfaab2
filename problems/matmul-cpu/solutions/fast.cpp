// matmul-cpu fast reference: packed, cache-blocked GEMM with a register-blocked FMA micro-kernel, OpenMP over tiles. Must get AC; sets the fast end of the score scale.
//
// BLIS-style structure, plain C++ with GCC/Clang vector extensions (no intrinsics):
//   for each depth block pc of KC (N dimension):
//     pack A[:, pc] into MR-row panels and B[pc, :] into NR-column panels (zero-padded, in parallel)
//     for each (MC rows x NCG cols) tile, in parallel:
//       for each NR-wide B micro-panel (stays in L1): for each MR-high A micro-panel (from L2):
//         micro-kernel: MR x NR accumulators in vector registers, one FMA per (row, vector) per step
// The first depth block stores C (C arrives filled with NaN), later ones add to it.
// Edge tiles run the same kernel on the zero-padded panels and store only the valid part.
#include <algorithm>
#include <cstdlib>

namespace {

#if defined(__AVX512F__)
constexpr int VL = 16;  // floats per vector register
constexpr int MR = 14;  // 14 x 2 = 28 accumulators + 2 B vectors + 1 A broadcast <= 32 zmm
#elif defined(__AVX__)
constexpr int VL = 8;
constexpr int MR = 6;   // 6 x 2 = 12 accumulators + 2 + 1 <= 16 ymm
#else
constexpr int VL = 4;
constexpr int MR = 6;
#endif
constexpr int NV = 2;          // vectors per micro-tile row
constexpr int NR = NV * VL;    // micro-tile width in floats
constexpr int KC = 384;        // max depth block: a KC x NR B micro-panel (48 KiB) stays in L1/L2; 384 measured best here
constexpr int MC = MR * 8;     // rows per tile: an MC x KC A block fits in L2
constexpr int NCG = NR * 8;    // columns per tile

typedef float vf __attribute__((vector_size(VL * sizeof(float))));                 // aligned
typedef float vfu __attribute__((vector_size(VL * sizeof(float)), aligned(4)));    // unaligned

// acc = Ap(MR x kc) * Bp(kc x NR); then C (mr x nr valid, leading dim ldc) = or += acc.
inline void micro_kernel(int kc, const float* __restrict Ap, const float* __restrict Bp,
                         float* __restrict C, long ldc, int mr, int nr, bool first) {
    vf acc[MR][NV];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v) acc[r][v] = vf{};
    for (int p = 0; p < kc; ++p) {
        vf b[NV];
        for (int v = 0; v < NV; ++v) b[v] = *(const vf*)(Bp + p * NR + v * VL);
        for (int r = 0; r < MR; ++r) {
            const vf a = Ap[p * MR + r] - vf{};  // broadcast (x - 0 folds to x; x + 0 would not)
            for (int v = 0; v < NV; ++v) acc[r][v] += a * b[v];
        }
    }
    if (mr == MR && nr == NR) {
        for (int r = 0; r < MR; ++r)
            for (int v = 0; v < NV; ++v) {
                vfu* c = (vfu*)(C + r * ldc + v * VL);
                *c = first ? (vfu)acc[r][v] : *c + (vfu)acc[r][v];
            }
    } else {
        alignas(64) float tile[MR][NR];
        for (int r = 0; r < MR; ++r)
            for (int v = 0; v < NV; ++v) *(vf*)&tile[r][v * VL] = acc[r][v];
        for (int r = 0; r < mr; ++r)
            for (int j = 0; j < nr; ++j) C[r * ldc + j] = first ? tile[r][j] : C[r * ldc + j] + tile[r][j];
    }
}

float* alloc_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    return static_cast<float*>(std::aligned_alloc(64, bytes ? bytes : 64));
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    if (N <= 0) {
        std::fill(C, C + (long)M * K, 0.0f);
        return;
    }
    const int mpanels = (M + MR - 1) / MR, npanels = (K + NR - 1) / NR;
    const int kc_max = std::min(N, KC);
    float* Ap = alloc_floats((size_t)mpanels * MR * kc_max);
    float* Bp = alloc_floats((size_t)npanels * NR * kc_max);
    const int mtiles = (M + MC - 1) / MC, ntiles = (K + NCG - 1) / NCG;

#pragma omp parallel
    for (int pc = 0; pc < N; pc += KC) {
        const int kc = std::min(KC, N - pc);
        const bool first = pc == 0;

        // Pack B[pc:pc+kc, :] as npanels panels of kc x NR, zero-padded past K.
#pragma omp for schedule(static) nowait
        for (int jp = 0; jp < npanels; ++jp) {
            const int j0 = jp * NR, nr = std::min(NR, K - j0);
            float* dst = Bp + (size_t)jp * NR * kc;
            for (int p = 0; p < kc; ++p) {
                const float* src = B + (long)(pc + p) * K + j0;
                int j = 0;
                for (; j < nr; ++j) dst[p * NR + j] = src[j];
                for (; j < NR; ++j) dst[p * NR + j] = 0.0f;
            }
        }
        // Pack A[:, pc:pc+kc] as mpanels panels of kc x MR (column of MR rows per step), zero-padded past M.
#pragma omp for schedule(static)
        for (int ip = 0; ip < mpanels; ++ip) {
            const int i0 = ip * MR, mr = std::min(MR, M - i0);
            float* dst = Ap + (size_t)ip * MR * kc;
            for (int r = 0; r < MR; ++r) {
                if (r < mr) {
                    const float* src = A + (long)(i0 + r) * N + pc;
                    for (int p = 0; p < kc; ++p) dst[p * MR + r] = src[p];
                } else {
                    for (int p = 0; p < kc; ++p) dst[p * MR + r] = 0.0f;
                }
            }
        }  // implicit barrier: packing done before compute

#pragma omp for collapse(2) schedule(dynamic)
        for (int mt = 0; mt < mtiles; ++mt)
            for (int nt = 0; nt < ntiles; ++nt) {
                const int i_end = std::min(M, (mt + 1) * MC), j_end = std::min(K, (nt + 1) * NCG);
                for (int j0 = nt * NCG; j0 < j_end; j0 += NR) {
                    const float* bp = Bp + (size_t)(j0 / NR) * NR * kc;
                    const int nr = std::min(NR, K - j0);
                    for (int i0 = mt * MC; i0 < i_end; i0 += MR) {
                        const float* ap = Ap + (size_t)(i0 / MR) * MR * kc;
                        micro_kernel(kc, ap, bp, C + (long)i0 * K + j0, K, std::min(MR, M - i0), nr, first);
                    }
                }
            }  // implicit barrier: the next depth block repacks Ap and Bp
    }
    std::free(Ap);
    std::free(Bp);
}
