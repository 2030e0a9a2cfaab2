#include "sdk/checker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sdk/text.h"

namespace hpcjudge {

bool element_close(double got, double expected, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  if (std::isinf(expected) || std::isinf(got)) return got == expected;
  return std::fabs(got - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

namespace {

// One stretch of check_close's comparison, [from, to), with the ratio that made `worst` the worst.
struct Partial {
  CheckResult r;
  double worst_ratio = 0;
};

Partial check_range(std::span<const float> got, std::span<const double> expected, const Tolerance& base, size_t keep,
                    std::span<const double> bound, size_t from, size_t to) {
  Partial p;
  CheckResult& r = p.r;
  for (size_t i = from; i < to; ++i) {
    const double g = got[i], e = expected[i];
    const Tolerance tol{base.atol + (bound.empty() ? 0 : bound[i]), base.rtol};
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
    r.note_ratio(g, e);
    if (std::isfinite(g) && std::isfinite(e)) {
      // err > allowed >= 0 here, so the ratio is finite unless allowed is 0.
      const double ratio = std::fabs(g - e) / (tol.atol + tol.rtol * std::fabs(e));
      if (!r.worst || ratio > p.worst_ratio)
        r.worst = Mismatch{i, e, g}, p.worst_ratio = ratio, r.worst_allowed = tol.atol + tol.rtol * std::fabs(e);
    }
  }
  return p;
}

// `later` (the stretch after `into`'s) folded into `into`: the same result as one pass over both,
// ties going to the earlier index as they do in a single pass.
void merge(Partial& into, const Partial& later, size_t keep) {
  CheckResult& a = into.r;
  const CheckResult& b = later.r;
  a.mismatches += b.mismatches;
  for (const Mismatch& m : b.first)
    if (a.first.size() < keep) a.first.push_back(m);
  if (b.max_abs_err > a.max_abs_err) a.max_abs_err = b.max_abs_err, a.max_abs_index = b.max_abs_index;
  a.max_rel_err = std::max(a.max_rel_err, b.max_rel_err);
  if (b.ratios) {
    a.ratio_lo = a.ratios ? std::min(a.ratio_lo, b.ratio_lo) : b.ratio_lo;
    a.ratio_hi = a.ratios ? std::max(a.ratio_hi, b.ratio_hi) : b.ratio_hi;
    a.ratios += b.ratios;
  }
  if (b.worst && (!a.worst || later.worst_ratio > into.worst_ratio))
    a.worst = b.worst, into.worst_ratio = later.worst_ratio, a.worst_allowed = b.worst_allowed;
}

}  // namespace

CheckResult check_close(std::span<const float> got, std::span<const double> expected, const Tolerance& base,
                        size_t keep, std::span<const double> bound) {
  // Large outputs (10^8 elements of a GPU problem) in stretches on every core, merged in order.
  const size_t n = got.size();
  const size_t stretches = n < (size_t{1} << 18) ? 1 : 64;
  std::vector<Partial> parts(stretches);
#pragma omp parallel for schedule(dynamic, 1) if (stretches > 1)
  for (size_t k = 0; k < stretches; ++k)
    parts[k] = check_range(got, expected, base, keep, bound, n * k / stretches, n * (k + 1) / stretches);
  for (size_t k = 1; k < stretches; ++k) merge(parts[0], parts[k], keep);
  CheckResult r = std::move(parts[0].r);
  r.checked = n;
  r.tolerance = base;
  r.per_element = !bound.empty();
  return r;
}

std::string format_value(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  // An integer (an int32 or uint32 output's, a count) in full: %.9g would print INT32_MIN as -2.14748365e+09.
  if (v == std::trunc(v) && v >= -2147483648.0 && v <= 4294967295.0) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.9g", v);
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
  std::string s = std::to_string(r.mismatches) + " of " + counted(r.checked, "element") + " of " + buffer +
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

namespace {
std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}
std::string value_pair(const std::string& buffer, const Mismatch& m, size_t cols) {
  return where(buffer, m.index, cols) + " expected " + format_value(m.expected) + ", got " + format_value(m.got);
}

// K where every mismatch is about K times the expected value (within kFactorSpread, K not within kFactorOff of 1,
// at least kFactorMismatches of them): one factor off everywhere, as a sum kept on one of several threads or a
// wrong normaliser makes it; a race, lost precision or a wrong index gives no such factor.
std::optional<double> common_factor(const CheckResult& r) {
  constexpr size_t kFactorMismatches = 2;
  constexpr double kFactorSpread = 0.02, kFactorOff = 0.05;
  if (r.mismatches < kFactorMismatches || r.ratios != r.mismatches || r.ratio_lo * r.ratio_hi <= 0) return std::nullopt;
  if (r.ratio_hi - r.ratio_lo > kFactorSpread * std::min(std::fabs(r.ratio_lo), std::fabs(r.ratio_hi)))
    return std::nullopt;
  const double k = 0.5 * (r.ratio_lo + r.ratio_hi);
  if (std::fabs(k - 1) < kFactorOff) return std::nullopt;
  return k;
}

}  // namespace

std::string summarize(const CheckResult& r, const std::string& buffer, size_t cols) {
  if (r.ok()) return "";
  std::string s = std::to_string(r.mismatches) + " of " + counted(r.checked, "element") + " of " + buffer +
                  " wrong" + (r.tolerance ? "" : " (compared exactly)");
  if (!r.first.empty()) s += "; the first: " + value_pair(buffer, r.first.front(), cols);
  std::string hint;
  if (const std::optional<double> k = common_factor(r)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "every wrong element is about %.3g times the expected one: a missing reduction "
                  "or a wrong normaliser?", *k);
    hint = buf;
  }
  if (r.worst && r.tolerance) {
    const Mismatch& w = *r.worst;
    const Tolerance& t = *r.tolerance;
    const double err = std::fabs(w.got - w.expected), allowed = t.atol + t.rtol * std::fabs(w.expected);
    s += "\nlargest error: " + value_pair(buffer, w, cols) + ": ";
    if (r.per_element) {
      s += "absolute error " + sci(err) + " > " + sci(r.worst_allowed) + " allowed there (the error bound of that element)";
      if (err < 1e-2 * std::max(std::fabs(w.expected), r.worst_allowed) && hint.empty())
        hint = "close, but outside the error bound of an FP32 computation: precision is lost (a value rounded to "
               "fewer bits, a product in lower precision)";
    } else if (w.expected != 0 && t.rtol > 0) {
      const double rel = err / std::fabs(w.expected);
      s += "relative error " + sci(rel) + " > " + sci(allowed / std::fabs(w.expected)) + " allowed there (rtol " +
           format_value(t.rtol) + " + atol " + format_value(t.atol) + " / |expected|)";
      if (rel < 1e-2 && hint.empty()) hint = "close, but outside the tolerance: precision is lost, typically in a long sum kept in float; "
                             "accumulate in double, or in blocks or pairs";
    } else {
      s += "absolute error " + sci(err) + " > " + sci(allowed) + " allowed there (atol " + format_value(t.atol) +
           " + rtol " + format_value(t.rtol) + " x |expected|)";
    }
  }
  if (hint.empty()) {
    for (const Mismatch& m : r.first) {
      if (std::isnan(m.got) && !std::isnan(m.expected)) {
        hint = "NaN where a number is expected: an element never written (outputs start as NaN), or a 0/0 or inf-inf";
        break;
      }
      if (!r.tolerance && m.got == -2147483648.0 && m.expected != m.got) {
        hint = "INT32_MIN where a value is expected: an element never written (int32 outputs start as INT32_MIN)";
        break;
      }
      if (std::isinf(m.got) && std::isfinite(m.expected)) {
        hint = "an infinity where a finite value is expected: an overflow (exp of a large input, a sum past FLT_MAX)";
        break;
      }
    }
  }
  if (!hint.empty()) s += "\nhint: " + hint;
  return s;
}

}  // namespace hpcjudge
