// C = A·B in double for row-major float A (M×N) and B (N×K): C is M×K
// (LeetGPU's convention: the inner, summed dimension is N).
#pragma once
#include <span>

namespace hpcjudge::reference {
void matmul(std::span<const float> A, std::span<const float> B, std::span<double> C, int M, int N, int K);
}
