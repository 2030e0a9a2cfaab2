// SKIP: this machine cannot run the problem (a GPU problem without nvcc, or without a usable GPU where it is not
// emulated). Worse than AC only: the file may still be CE.
#pragma once
#include <string>

#include "judge/machine/gpu.h"
#include "judge/reports/report.h"

namespace hpcjudge {

// A GPU problem on a judge built without the CUDA toolkit and without the emulator.
void skip_without_nvcc(Report& r);

// A GPU problem compiled here, with no usable GPU to run it on (`device`, as probed).
void skip_without_device(Report& r, const GpuProbe& device);

}  // namespace hpcjudge
