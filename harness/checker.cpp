#include "checker.h"

#include <cmath>
#include <cstdio>

namespace hpcjudge {

bool element_close(double got, double expected, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  if (std::isinf(expected) || std::isinf(got)) return got == expected;
  return std::fabs(got - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

CheckResult check_close(std::span<const float> got, std::span<const double> expected, const Tolerance& tol,
                        size_t keep) {
  CheckResult r;
  r.checked = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], e = expected[i];
    if (std::isfinite(g) && std::isfinite(e)) {
      const double err = std::fabs(g - e);
      if (err > r.max_abs_err) {
        r.max_abs_err = err;
        r.max_abs_index = i;
      }
      if (e != 0) r.max_rel_err = std::max(r.max_rel_err, err / std::fabs(e));
    }
    if (element_close(g, e, tol)) continue;
    if (r.first.size() < keep) r.first.push_back({i, e, g});
    ++r.mismatches;
  }
  return r;
}

std::string format_value(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

namespace {
std::string where(const std::string& buffer, size_t index, size_t cols) {
  char buf[128];
  if (cols > 0)
    std::snprintf(buf, sizeof buf, "%s[%zu,%zu]", buffer.c_str(), index / cols, index % cols);
  else
    std::snprintf(buf, sizeof buf, "%s[%zu]", buffer.c_str(), index);
  return buf;
}
}  // namespace

std::string describe(const CheckResult& r, const std::string& buffer, size_t cols) {
  if (r.ok()) return "";
  std::string s = std::to_string(r.mismatches) + " of " + std::to_string(r.checked) + " elements of " + buffer +
                  " wrong: ";
  for (size_t k = 0; k < r.first.size(); ++k) {
    if (k) s += "; ";
    s += where(buffer, r.first[k].index, cols) + " expected " + format_value(r.first[k].expected) + ", got " +
         format_value(r.first[k].got);
  }
  if (r.mismatches > r.first.size()) s += "; ...";
  if (r.max_abs_err == 0) return s;  // every mismatch was a NaN or an infinity
  char buf[160];
  std::snprintf(buf, sizeof buf, " (max abs err %.3g at %s, max rel err %.3g)", r.max_abs_err,
                where(buffer, r.max_abs_index, cols).c_str(), r.max_rel_err);
  return s + buf;
}

}  // namespace hpcjudge
