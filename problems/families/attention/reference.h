// Multi-head attention in double: for each head, softmax(Q_h·K_hᵀ / √d_k)·V_h,
// where Q, K, V are N×d_model row-major floats and head i owns columns
// i·d_k … (i+1)·d_k − 1 (d_k = d_model / h). The softmax subtracts each row's
// maximum, so no score overflows.
#pragma once
#include <cstdint>
#include <span>

namespace hpcjudge::reference {
void attention(std::span<const float> Q, std::span<const float> K, std::span<const float> V, std::span<double> out,
               int64_t N, int64_t d_model, int64_t h);

// Only the given output rows (every head), row after row in `out` (rows.size() × d_model).
void attention_rows(std::span<const float> Q, std::span<const float> K, std::span<const float> V,
                    std::span<const int64_t> rows, std::span<double> out, int64_t N, int64_t d_model, int64_t h);
}
