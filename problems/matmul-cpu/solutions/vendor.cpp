// vendor anchor for make bench: C = A·B with OpenBLAS cblas_sgemm, on as many threads as OpenMP would use. Not a score
// end point: it is timed beside the baseline and fast references to show what the vendor library gets on this CPU.
//   - Why this is the right anchor: OpenBLAS is the BLAS Debian ships (libopenblas-dev) and the one the judge links;
//     its SGEMM has hand-written assembly micro-kernels per CPU family (AVX2, AVX-512), the mark a packed, blocked
//     FP32 GEMM is measured against. It computes in FP32 like the submissions.
//   - Layout: row-major A M×N, B N×K, C M×K with N the inner dimension (LeetGPU's convention), so
//     cblas_sgemm(RowMajor, NoTrans, NoTrans, M, K, N, 1, A, N, B, K, 0, C, K): BLAS's (m, n, k) is our (M, K, N).
//     beta = 0, so C's incoming content (the judge's NaN sentinel) is never read.
//   - Threads: the judge's runner starts with OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=<the case's threads>
//     (judge/isolation/session.cpp), so every call first sets OpenBLAS to omp_get_max_threads(), the number an OpenMP
//     submission gets (cheap when it is unchanged). Debian's default libopenblas is the pthread build: these are
//     OpenBLAS's own threads, not OpenMP's pool.
#include <cblas.h>
#include <omp.h>

#include <algorithm>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    if (N <= 0) {  // an empty sum: C = 0
        std::fill(C, C + static_cast<long>(M) * K, 0.0f);
        return;
    }
    openblas_set_num_threads(omp_get_max_threads());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, K, N, 1.0f, A, N, B, K, 0.0f, C, K);
}
