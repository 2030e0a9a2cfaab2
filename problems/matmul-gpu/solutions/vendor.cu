// vendor anchor for make bench: C = A·B with cuBLAS cublasSgemm in true FP32 (CUBLAS_PEDANTIC_MATH). Not a score
// end point: it is timed beside the baseline and fast references to show what the vendor library gets on this GPU.
//   - Why this is the right anchor: cublasSgemm is NVIDIA's tuned FP32 GEMM, the one a user of the CUDA toolkit would
//     call. Pedantic math pins the computation to FP32 FMA: no TF32 tensor cores (which would fail the tolerance)
//     and no FP32 emulation on BF16 tensor cores (CUDA 13's CUBLAS_FP32_EMULATED_BF16X9_MATH, which an environment
//     variable could otherwise switch on), so the anchor solves the same problem as the submissions.
//   - Layout: our matrices are row-major (A M×N, B N×K, C M×K, N inner). A row-major matrix is its transpose in
//     column-major, so C = A·B is computed as the column-major Cᵀ (K×M) = Bᵀ (K×N) · Aᵀ (N×M): no transposes, no
//     copies. Leading dimensions K, N and K satisfy cuBLAS's ld >= rows for every shape down to 1×1×1.
//   - Memory: the handle and a 32 MiB cuBLAS workspace (NVIDIA's recommended size for Hopper) are function-local
//     statics created on the first call (a functional test, untimed) and reused. The workspace is our own
//     cudaMalloc, handed to cuBLAS with cublasSetWorkspace, so the judge counts it (the limit is the case's buffers
//     + 64 MiB); cuBLAS's own internal allocations go through its private, statically linked CUDA runtime and are
//     invisible to the judge.
//   - Everything runs on the legacy default stream; the judge synchronises after solve returns.
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace {

constexpr size_t kWorkspaceBytes = size_t{32} << 20;

struct Cublas {
    cublasHandle_t handle = nullptr;
    void* workspace = nullptr;
    bool ok = false;
    Cublas() {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return;
        if (cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) return;
        if (cudaMalloc(&workspace, kWorkspaceBytes) != cudaSuccess) return;
        if (cublasSetWorkspace(handle, workspace, kWorkspaceBytes) != CUBLAS_STATUS_SUCCESS) return;
        ok = true;
    }
};

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    static Cublas cb;  // created on the first call (whatever its shape), reused by every later one
    if (M <= 0 || K <= 0) return;
    if (N <= 0) {  // an empty sum: C = 0
        cudaMemsetAsync(C, 0, sizeof(float) * static_cast<size_t>(M) * static_cast<size_t>(K));
        return;
    }
    if (!cb.ok) return;  // the outputs stay at the sentinel: a wrong answer, never a silent pass
    const float one = 1.0f, zero = 0.0f;
    // Column-major: Cᵀ (K×M, ld K) = Bᵀ (K×N, ld K) · Aᵀ (N×M, ld N).
    cublasSgemm(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
}
