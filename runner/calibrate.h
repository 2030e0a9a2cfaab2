// Speed of light: what this machine can do at best, measured, so the reports
// can give each performance case as a percentage of it and the judge can
// reject a time no hardware allows. Run in the runner (`hpcjudge-runner
// --calibrate`), cached by the judge per machine fingerprint.
//   CPU: a STREAM-like copy over arrays far larger than the caches (bytes read
//        plus bytes written per second) and FP32 FMA throughput (independent
//        vector FMA chains on every thread).
//   GPU: device-to-device copy bandwidth (the better of cudaMemcpy and a copy
//        kernel; read plus write) and FP32 FMA throughput (a kernel of
//        independent fmaf chains on every SM).
#pragma once
#include "protocol/json.h"

namespace hpcjudge::calibrate {

// {"copy_gbps": ..., "fma_gflops": ...} with `threads` OpenMP threads.
nlohmann::json cpu(int threads);

#ifdef HPCJUDGE_HAVE_CUDA
// {"copy_gbps": ..., "fma_gflops": ...} of device `index`, or {"error": ...}.
nlohmann::json gpu(int index);
#endif

}  // namespace hpcjudge::calibrate
