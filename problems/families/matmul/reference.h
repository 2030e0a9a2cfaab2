// C = A·B in double for row-major float A (M×N) and B (N×K): C is M×K
// (LeetGPU's convention: the inner, summed dimension is N).
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace hpcjudge::reference {
void matmul(std::span<const float> A, std::span<const float> B, std::span<double> C, int M, int N, int K);

// Freivalds' check of C = A·B in double: C·r against A·(B·r) for two random
// ±1 vectors r, each row within K·atol (each element may err by atol), then 64
// random elements recomputed exactly and held to atol. A wrong row passes one
// vector with probability 1/2 at most, so two vectors miss it with 1/4 at
// most, and a C wrong in many rows (a stale answer) never passes. "" when it
// passes, else the first failure. `draw` seeds the random choices.
std::string matmul_spot_check(std::span<const float> A, std::span<const float> B, std::span<const float> C,
                              int64_t M, int64_t N, int64_t K, double atol, uint64_t draw);

// The OpenBLAS kernels to name (OPENBLAS_CORETYPE, read once as the library loads) where OpenBLAS took this CPU
// for an older one than its features say: a model it does not know gets its SSE3 kernels ("Prescott"), as the
// H200's host, a virtual machine whose CPU calls itself "Intel(R) Xeon(R) Processor", did (SGEMM
// 2048^3 on 16 threads: 73-76 ms, 230 GFLOP/s, where the judge's own OpenMP matmul took 15-16 ms). "SkylakeX"
// with AVX-512 (F, DQ, BW, VL), "Haswell" with AVX2 and FMA; nullptr where OpenBLAS chose kernels of that
// class itself, where the CPU has neither, or without OpenBLAS.
const char* openblas_coretype_to_name();
// The same choice from OpenBLAS's own (`chosen`, openblas_get_corename()) and the CPU's features.
const char* openblas_coretype_for(const char* chosen, bool avx512, bool avx2_fma);
}
