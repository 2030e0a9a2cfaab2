// The score. A problem's correctness points come only with AC on every
// functional test. Its performance points scale between the problem's
// baseline solution (0 points) and its fast reference solution (all points),
// both timed on this machine and cached per machine fingerprint:
//
//   s = clamp( sum_c ln(t_base,c / t_c) / sum_c ln(t_base,c / t_fast,c), 0, kMaxFraction )
//
// over the performance cases c (medians): the geometric mean of the speed-ups
// on a log scale, so a score means the same on any machine. Beating the fast
// reference earns a bonus, bounded: s stops at kMaxFraction (1.2), so at most
// a fifth of the performance points come on top. A case whose baseline is
// within kMinScaleSpan of the fast reference is scored from a slow end
// kMinScaleSpan times the fast reference's time instead (its span would
// otherwise be narrower than the noise of one run).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/grading/grade_options.h"
#include "judge/paths.h"

namespace hpcjudge {

// The most the performance fraction can be: 1 is the fast reference's speed,
// the 0.2 above it a bounded bonus for beating it.
inline constexpr double kMaxFraction = 1.2;

// A score whose interval is wider than this many points either side says what the machine was doing (machine_noise).
inline constexpr double kNoisyPoints = 2.0;

// The narrowest span a case is scored on: where the baseline is less than this many times the fast reference's
// time, the scale's slow end is this many times the fast reference's time, and only the ratio to the fast reference
// counts. Measured on the H200 side by side, vector-add's naive baseline took 1.00x and 0.98-1.05x the fast
// reference's time (both at the copy bandwidth with the call's overhead), reduction's 0.98x at n16M: on such a span
// the fast reference itself, judged as a submission, scored 40.0 (0 of 60) and 112.0 in two grades of one session.
inline constexpr double kMinScaleSpan = 2.0;

struct CaseScale {
  std::string name;
  double baseline_s = 0, fast_s = 0;
};

struct Scale {
  std::vector<CaseScale> cases;
  std::string error;  // why there is no scale (a reference solution not AC, ...)
  double load_per_core = -1;  // the 1-minute load average over the cores when it was measured (-1: not known)
};

// A cached scale measured while the machine was busy (load per core above kBusyScaleLoad: the judge's
// own timing makes about 1) is timed again once the machine is quiet (at most kQuietLoad per core).
inline constexpr double kBusyScaleLoad = 1.5;
inline constexpr double kQuietLoad = 1.0;
bool retime_busy_scale(double cached_load_per_core, double now_load_per_core);
// The 1-minute load average (-1 where /proc/loadavg cannot be read), and the same over `cores`.
double load_average();
double load_per_core(int cores);

// problems/<slug>/solutions/<role>.<ext>: role "baseline", "fast" or "vendor" (make bench's anchor).
std::filesystem::path reference_solution(const Problem& p, const Paths& paths, const std::string& role);

// A digest of the baseline's and the fast reference's sources: a cached scale
// counts only while both files are the ones it timed.
std::string reference_digest(const std::filesystem::path& baseline, const std::filesystem::path& fast);

// The scale cached in `file`, if it was measured on this machine (fingerprint)
// from these reference solutions (digest) by this judge's cache format.
std::optional<Scale> read_cached_scale(const std::filesystem::path& file, const std::string& fingerprint,
                                       const std::string& digest);

// Writes what read_cached_scale reads.
void write_scale_cache(const std::filesystem::path& file, const std::string& fingerprint, const std::string& digest,
                       const Scale& scale);

// The scale cached for this machine, where it was not measured on a busier machine than this one is now (then
// `busy`, where given, says so: load_or_measure_scale times it again), else nothing.
std::optional<Scale> cached_scale_in_use(const Problem& p, const Paths& paths, const MachineInfo& m,
                                         std::string* busy = nullptr);

// Caches the scale from the baseline's and the fast reference's reports (both
// AC, timed on this machine in this run): what load_or_measure_scale and make
// bench both do, so a judge run after make bench finds the scale measured.
Scale save_scale(const Problem& p, const Paths& paths, const MachineInfo& m, const Report& baseline,
                 const Report& fast);

// The performance fraction and its interval. Per case c, the numerator's term
// ln(t_base,c / t_c) and the denominator's ln(t_base,c / t_fast,c) come from
// this run where the references were timed side by side:
//   fast and baseline beside:  -m_base,c  and  m_fast,c - m_base,c
//   only the fast beside:      ln(cached t_base,c / t_fast,c) - m_fast,c  and  the cached ln(t_base,c / t_fast,c)
//   neither:                   the cached medians against the case's median
// with m_role,c the median over the runs of ln(t_run / t_role). The interval is
// the numerator's uncertainty, each case's median interval (half-widths in log
// units, added in quadrature), over the denominator; all three clamped to [0, kMaxFraction].
struct Fraction {
  double value = 0, lo = 0, hi = 0;
  std::vector<std::string> floored;  // the cases scored from kMinScaleSpan x the fast reference's time
  // Each case's own ln(t_base,c / t_c) over ln(t_base,c / t_fast,c), clamped as the value is: its share of the
  // performance points, which colours its bar on the leaderboard.
  std::vector<std::pair<std::string, double>> shares;
};
std::optional<Fraction> performance_estimate(const std::vector<BenchResult>& bench, const Scale& scale);
// performance_estimate's value alone.
std::optional<double> performance_fraction(const std::vector<BenchResult>& bench, const Scale& scale);

// What the machine was doing, in words, for a score whose interval is wide:
// the load average against the cores, the GPU's clock before and after the timing,
// and the cases whose calls take under kShortCallS (their spread is partly the judge's
// own per-call overhead, not the machine's load).
inline constexpr double kShortCallS = 1e-3;
std::string machine_noise(const Report& r);

// Fills r.score (and each bench row's reference times); `scale_in_use` gives the machine's scale where the
// performance is scored (judge/grading/grade.h: load_or_measure_scale, which grades the references).
void score_report(const Problem& p, const GradeOptions& opt, Report& r, const std::function<Scale()>& scale_in_use);

}  // namespace hpcjudge
