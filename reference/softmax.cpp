#include "softmax.h"

#include <cmath>
#include <limits>

namespace hpcjudge::reference {

void softmax(std::span<const float> x, std::span<double> y) {
  const int64_t n = static_cast<int64_t>(x.size());
  double m = -std::numeric_limits<double>::infinity();
#pragma omp parallel for reduction(max : m) if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<double>(x[i]));
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) {
    y[i] = std::exp(static_cast<double>(x[i]) - m);
    s += y[i];
  }
#pragma omp parallel for if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) y[i] /= s;
}

}  // namespace hpcjudge::reference
