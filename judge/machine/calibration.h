// The machine's speed of light (runner/calibrate.h), measured once per
// machine fingerprint and cached: the reports give every performance case as
// a percentage of it, and a timed run faster than the hardware allows is
// FAIL, never a score.
#pragma once
#include "protocol/json.h"
#include <optional>
#include <string>

#include "sdk/problem.h"
#include "judge/machine/machine.h"
#include "judge/paths.h"

namespace hpcjudge {

struct Peaks {
  double copy_gbps = 0;   // bytes read plus bytes written per second, in GB/s
  double fma_gflops = 0;  // FP32 FMA throughput (2 flops each), in GFLOP/s
  nlohmann::json measured;
};

// The cache format. 2: the CPU FMA rate is the best of 4-, 8- and 16-lane vectors; version 1 measured 16 lanes
// only, which on a CPU without AVX-512 split and spilled to a tenth of the true rate. 3: the CPU copy is the better
// of plain and streaming stores.
inline constexpr int kPeaksCacheVersion = 3;

// For a CPU or a GPU problem (m.gpu names the device for GPU ones); nullopt when it cannot be measured.
// Measured once per machine fingerprint and cached; `remeasure` (make bench) measures again. A busy machine
// can only measure a peak too low, never too high, so each figure kept is the highest measured yet.
std::optional<Peaks> machine_peaks(const Paths& paths, const MachineInfo& m, Kind kind, int device,
                                   bool remeasure = false);

// The share of the peak a case reached: by its FLOP model where it has one, else by its traffic.
double percent_of_peak(double bytes, double flops, double seconds, const Peaks& p);

// The fastest a case may be timed: its traffic at kBytesSlack times the copy
// bandwidth, or its FLOPs at kFlopsSlack times the FMA throughput. The slack
// admits what is legitimately faster than the measured peak: outputs still in
// the L2 when the timer stops, a second read served by the cache, FP32-accurate
// tensor-core tricks (3xTF32) beyond the FMA units.
inline constexpr double kBytesSlack = 3, kFlopsSlack = 8;
double physical_floor_s(double bytes, double flops, const Peaks& p);

// A timed call proven faster than the hardware allows: the judge's whole interval
// for it, the channel's round trip included and nothing subtracted, below the
// floor. Not the scored time: the round trip subtracted from it is the 10th
// percentile of the pings, which a call's own quick wake-up can undercut, and
// an honest call of microseconds then scores at or near 0 s (softmax-gpu's n1M
// fast reference on the H200 was FAIL so at the 4th timed run of one grade in
// four, each making about 300 runs of that case).
inline bool faster_than_hardware(double interval_s, double floor_s) { return interval_s < floor_s; }

}  // namespace hpcjudge
