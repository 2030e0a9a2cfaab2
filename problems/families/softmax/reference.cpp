#include "problems/families/softmax/reference.h"

#include <cmath>
#include <limits>

#include "problems/families/ordered_sum.h"

namespace hpcjudge::reference {

void softmax(std::span<const float> x, std::span<double> y) {
  const int64_t n = static_cast<int64_t>(x.size());
  double m = -std::numeric_limits<double>::infinity();
#pragma omp parallel for reduction(max : m) if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<double>(x[i]));
  const double s = ordered_sum<double>(
      n,
      [&](double& acc, int64_t i) {
        y[i] = std::exp(static_cast<double>(x[i]) - m);
        acc += y[i];
      },
      [](double& total, double part) { total += part; });
#pragma omp parallel for if (n > (1 << 16))
  for (int64_t i = 0; i < n; ++i) y[i] /= s;
}

}  // namespace hpcjudge::reference
