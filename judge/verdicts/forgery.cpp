#include "judge/verdicts/forgery.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>

#include "judge/reports/text.h"

namespace hpcjudge {

std::optional<std::string> disagreement(double reported_s, double judged_s, const RoundTrip& rt) {
  const double allowed = std::max(3 * rt.noise_s, 0.5 * judged_s);
  if (reported_s + allowed >= judged_s) return std::nullopt;
  char why[320];
  std::snprintf(why, sizeof why,
                "the time reported by the submission's process disagrees with the judge's clock: median %s "
                "reported, %s at the fastest measured by the judge (round trip %s, noise %s subtracted and "
                "allowed for)",
                format_seconds(reported_s).c_str(), format_seconds(judged_s).c_str(),
                format_seconds(rt.subtracted_s).c_str(), format_seconds(rt.noise_s).c_str());
  return std::string(why);
}

std::optional<std::string> early_reply_forgery(double median_s, double rival_median_s, const std::string& rival,
                                               const RoundTrip& rt) {
  if (median_s > 0 || rival_median_s <= 3 * rt.noise_s) return std::nullopt;
  char why[480];
  std::snprintf(why, sizeof why,
                "half or more of its timed calls ended within the judge's round trip to the runner (%s), while the "
                "%s reference timed beside it, on the same inputs, took %s a call past it: the calls end before "
                "their work (a reply sent while the kernel still runs?), so their time cannot be trusted",
                format_seconds(rt.subtracted_s).c_str(), rival.c_str(), format_seconds(rival_median_s).c_str());
  return std::string(why);
}

std::optional<std::string> faster_than_hardware_forgery(double interval_s, const Model& model, double floor_s,
                                                        const Peaks& peaks) {
  if (!faster_than_hardware(interval_s, floor_s)) return std::nullopt;
  char why[400];
  std::snprintf(why, sizeof why,
                "%.3g s, the judge's whole interval for the call (nothing subtracted), is faster than the "
                "hardware allows: the case moves %.3g bytes and does %.3g FLOP, at least %.3g s even at %g "
                "times this machine's copy bandwidth (%.0f GB/s) and %g times its FP32 FMA rate (%.0f "
                "GFLOP/s); the time reported cannot be real",
                interval_s, model.bytes, model.flops, floor_s, kBytesSlack, peaks.copy_gbps, kFlopsSlack,
                peaks.fma_gflops);
  return std::string(why);
}

std::optional<std::string> judge_slowed(const std::optional<Scheduling>& started) {
  if (!started) return std::nullopt;
  const auto was = Scheduling::of(0);
  sched_setaffinity(0, sizeof started->cpus, &started->cpus);
  const auto may = Scheduling::of(0);
  if (!was || !may) return std::nullopt;
  if (auto why = slowed(*started, *was, may->cpus)) return "the judge's own thread, which times every call, " + *why;
  return std::nullopt;
}

std::optional<std::string> slowing_forgery(std::optional<std::string> judge_why, std::optional<std::string> rival_why) {
  std::optional<std::string> why = judge_why ? judge_why : rival_why;
  if (!why) return std::nullopt;
  return *why + "; only the submission's code ran as the judge's user meanwhile: a forgery of the timing";
}

}  // namespace hpcjudge
