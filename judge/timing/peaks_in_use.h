// The machine's peaks for the timed cases. A peak can only be measured too low (a busy machine), so the first
// time a case seems to beat it -- over 100% of it, or under the physical floor -- it is measured again (the
// highest of each figure kept, judge/machine/calibration.h) before the judge believes the case.
#pragma once
#include <optional>
#include <vector>

#include "judge/machine/calibration.h"
#include "judge/paths.h"
#include "judge/reports/report.h"

namespace hpcjudge {

class PeaksInUse {
 public:
  PeaksInUse(const Paths& paths, Report& r, Kind kind, int device);
  const std::optional<Peaks>& get() const { return peaks_; }
  // Measures again, once per grade; false if it was done already or could not be. The cases already timed (in the
  // report, and `timed`: those run_bench holds until it reports them in the problem's order) are put against the
  // figures now known.
  bool remeasure(std::vector<std::optional<BenchResult>>* timed = nullptr);

 private:
  void put_against_peaks(BenchResult& b) const;
  const Paths& paths_;
  Report& r_;
  Kind kind_;
  int device_;
  std::optional<Peaks> peaks_;
  bool remeasured_ = false;
};

}  // namespace hpcjudge
