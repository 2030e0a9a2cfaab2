// A named range around each call of solve(), for `judge profile` (judge/machine/profile.h): Nsight Compute then
// profiles only the kernels launched inside it (`--nvtx --nvtx-include solve/`), never those of setup(), which may
// launch the very same kernels (spmv's fast reference times its candidate plans there, untimed, before any call).
// The range is an NVTX push/pop range (NVTX v3, header-only, part of the CUDA toolkit); it is opened only where
// the judge asked for it in the runner's environment (settings::kProfileRange, HPCJUDGE_PROFILE_RANGE=1), so a graded call runs no NVTX code.
// The same request has the runner measure its own CPU time over each call (protocol::Reply::cpu_seconds): the
// CPUs solve() kept busy, for a CPU problem's profile.
#pragma once

#include "settings/settings.h"

#if defined(HPCJUDGE_HAVE_CUDA) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define HPCJUDGE_HAVE_NVTX 1
#endif

namespace hpcjudge {

inline constexpr const char* kProfileRangeName = "solve";

// Whether this runner marks its calls (read once, before any call).
inline bool profile_range_wanted() {
  return settings::Settings::at_start().get(settings::kProfileRange) == "1";
}

// Opens the range for its lifetime where `on`.
class ProfileRange {
 public:
  explicit ProfileRange(bool on) : on_(on) {
#ifdef HPCJUDGE_HAVE_NVTX
    if (on_) nvtxRangePushA(kProfileRangeName);
#endif
  }
  ~ProfileRange() {
#ifdef HPCJUDGE_HAVE_NVTX
    if (on_) nvtxRangePop();
#endif
  }
  ProfileRange(const ProfileRange&) = delete;
  ProfileRange& operator=(const ProfileRange&) = delete;

 private:
  bool on_;
};

}  // namespace hpcjudge
