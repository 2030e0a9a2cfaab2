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
}
