// What the judge knows of the GPU, asked of the runner (`hpcjudge-runner
// --probe`) so the judge process itself never creates a CUDA context.
#pragma once
#include <filesystem>
#include "protocol/json.h"
#include <string>
#include <vector>

#include "judge/paths.h"

namespace hpcjudge {

struct GpuProbe {
  int devices = 0;
  std::string error;      // why there is no usable device
  nlohmann::json device;  // name, arch, sm_count, memory_bytes, driver, cuda_runtime, ...
  bool usable() const { return devices > 0 && error.empty(); }
};

// Probes once per process and device.
const GpuProbe& probe_gpu(const Paths& paths, int device);

// Why a GPU problem is not run here, in plain words: "no NVIDIA GPU or driver on this
// machine: compiled only" where the driver has no device nodes, else what the CUDA
// runtime found wrong (a driver older than the toolkit, a device number not present).
std::string no_device_message(const GpuProbe& probe);

// The NVIDIA driver's entries in /dev (/dev/nvidia0, nvidiactl, nvidia-uvm, the
// nvidia-caps folder, ...): what a GPU process needs of /dev, and all it gets
// in the sandbox.
std::vector<std::filesystem::path> nvidia_device_nodes();

// The nvcc the judge was built with ("" without the CUDA toolkit).
std::string nvcc_path();

// Where the CUDA toolkit is, as nvcc itself reports it (`nvcc --dryrun`: its TOP
// and the include folders it passes the host compiler), so that an nvcc reached
// through a wrapper script or a link farm still names the real toolkit.
struct CudaToolkit {
  std::filesystem::path top;                         // the toolkit's root ("" when unknown)
  std::vector<std::filesystem::path> include_dirs;  // every -I and -isystem nvcc adds
};
CudaToolkit parse_nvcc_dryrun(const std::string& dryrun_output);
// The judge's toolkit, asked of nvcc once per process, folders made canonical;
// the folder above nvcc's own where nvcc does not answer. Empty without CUDA.
const CudaToolkit& cuda_toolkit();

// compute-sanitizer beside nvcc or on PATH ("" when not installed).
std::string compute_sanitizer_path();

}  // namespace hpcjudge
