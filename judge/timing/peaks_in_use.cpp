#include "judge/timing/peaks_in_use.h"

namespace hpcjudge {

PeaksInUse::PeaksInUse(const Paths& paths, Report& r, Kind kind, int device)
    : paths_(paths), r_(r), kind_(kind), device_(device), peaks_(machine_peaks(paths, r.machine, kind, device)) {
  if (peaks_) r_.machine.peaks = peaks_->measured;
}

void PeaksInUse::put_against_peaks(BenchResult& b) const {
  if (b.percent_of_peak) b.percent_of_peak = percent_of_peak(b.bytes, b.flops, b.stats.median, *peaks_);
  if (b.device_percent_of_peak) b.device_percent_of_peak = percent_of_peak(b.bytes, b.flops, b.device->median, *peaks_);
}

bool PeaksInUse::remeasure(std::vector<std::optional<BenchResult>>* timed) {
  if (remeasured_) return false;
  remeasured_ = true;
  auto fresh = machine_peaks(paths_, r_.machine, kind_, device_, true);
  if (!fresh) return false;
  peaks_ = fresh;
  r_.machine.peaks = peaks_->measured;
  for (BenchResult& b : r_.bench) put_against_peaks(b);
  if (timed)
    for (std::optional<BenchResult>& b : *timed)
      if (b) put_against_peaks(*b);
  return true;
}

}  // namespace hpcjudge
