// Softmax over all of x, in double: y[i] = exp(x[i] - max) / sum_j exp(x[j] - max).
#pragma once
#include <span>

namespace hpcjudge::reference {
void softmax(std::span<const float> x, std::span<double> y);
}
