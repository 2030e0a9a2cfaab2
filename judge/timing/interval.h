// The interval a call is timed by: the judge's clock from the request written (just before the runner's family
// is resumed) to the reply there to read (on a GPU, the judge's fence after it), or to the family's stop where
// its processes worked on past the reply (more CPU than the late-work allowance); less the round trip of the
// same exchange, measured on the runner before the submission was loaded (judge/isolation/session.h measures,
// these functions define).
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hpcjudge {

// The channel's round trip on one runner, measured before its submission was loaded.
struct RoundTrip {
  double median_s = 0;
  // What a call's interval has subtracted: the 10th percentile, so that a busy
  // moment while it was measured can never take more than the round trip off a call.
  double subtracted_s = 0;
  double noise_s = 0;  // the spread of the samples: the interquartile range
  size_t samples = 0;
  // CPU the runner's processes used from a ping's reply to their stop (going back to waiting, and the stop
  // itself), in 9 of 10 pings: the runner's own, which a call's late-work allowance adds to (Session::exchange).
  uint64_t after_cpu_ns = 0;
};

// The round trip's pings: warm-up exchanges, then the measured ones (after a cache flush: kColdSamples).
inline constexpr int kRoundTripWarmup = 5, kRoundTripSamples = 41, kColdSamples = 21;

// The round trip of measured pings: each one's interval, and the CPU the runner used after each reply.
RoundTrip round_trip_of(std::vector<double> samples_s, std::vector<uint64_t> after_cpu_ns);

// CPU the runner's processes may use between sending a reply and being stopped, beyond what the runner's
// own return to waiting took in its pings before the submission was loaded, before the judge's clock runs
// on to the stop; and the most that the two together may come to. On the H200's host the pings took
// 30-60 us of it (90th percentile 45-160 us), a GPU call 80-130 us: against a flat 100 us, 13-23 of a
// runner's 39 timed calls in an spmv grade were timed to the stop (0.5-1 ms more each), where the fast
// reference judged against itself then scored 112.0 +- 22.5.
inline constexpr uint64_t kLateWorkNs = 100'000, kLateWorkCapNs = 300'000;

// The late-work allowance of a runner whose pings are `warm` and `cold`: measured before any of the
// submission's code ran, so it cannot be raised by it; capped (UINT64_MAX, a ping that started a process,
// included) before the sum, which then cannot wrap.
uint64_t late_work_allowance_ns(const RoundTrip& warm, const RoundTrip& cold);

// Whether the processes worked on past the reply: more CPU after it than the allowance (UINT64_MAX: not known).
inline bool worked_late(uint64_t cpu_after_ns, uint64_t allowance_ns) { return cpu_after_ns > allowance_ns; }

// The interval's end: the reply there to read (on a GPU, the fence after it: `reply_end`), or the family's stop
// where it worked on past the reply.
template <class TimePoint>
TimePoint interval_end(TimePoint reply_end, TimePoint stopped, bool worked_late) {
  return worked_late ? stopped : reply_end;
}

// A call's figures on the judge's clock, from its interval's moments.
struct CallTimes {
  double interval_s = 0;  // the whole interval, nothing subtracted
  double seconds = 0;     // the interval less the round trip: the call's time
  double replied_s = 0;   // up to the reply alone, less the round trip (what the runner's own figure is checked by)
};
template <class TimePoint>
CallTimes call_times(TimePoint start, TimePoint replied, TimePoint end, double subtracted_s) {
  const double interval = std::chrono::duration<double>(end - start).count();
  const double to_reply = std::chrono::duration<double>(replied - start).count();
  return {.interval_s = interval,
          .seconds = interval - subtracted_s > 0 ? interval - subtracted_s : 0.0,
          .replied_s = to_reply - subtracted_s > 0 ? to_reply - subtracted_s : 0.0};
}

}  // namespace hpcjudge
