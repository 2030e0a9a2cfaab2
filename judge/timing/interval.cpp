#include "judge/timing/interval.h"

#include <algorithm>

namespace hpcjudge {

RoundTrip round_trip_of(std::vector<double> samples_s, std::vector<uint64_t> after_cpu_ns) {
  std::sort(samples_s.begin(), samples_s.end());
  std::sort(after_cpu_ns.begin(), after_cpu_ns.end());
  // The sample at rank q of n sorted ones (the lower of two where q falls between).
  const auto at = [](const auto& sorted, double q) {
    return sorted[static_cast<size_t>(q * static_cast<double>(sorted.size() - 1))];
  };
  return {.median_s = at(samples_s, 0.5),
          .subtracted_s = at(samples_s, 0.1),
          .noise_s = at(samples_s, 0.75) - at(samples_s, 0.25),
          .samples = samples_s.size(),
          .after_cpu_ns = at(after_cpu_ns, 0.9)};
}

uint64_t late_work_allowance_ns(const RoundTrip& warm, const RoundTrip& cold) {
  return kLateWorkNs + std::min(kLateWorkCapNs - kLateWorkNs, std::max(warm.after_cpu_ns, cold.after_cpu_ns));
}

}  // namespace hpcjudge
