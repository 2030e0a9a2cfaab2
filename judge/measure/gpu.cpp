#include "judge/measure/gpu.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <sstream>

#include "harness/text.h"
#include "judge/isolation/process.h"

namespace hpcjudge {

namespace fs = std::filesystem;

std::vector<std::filesystem::path> nvidia_device_nodes() {
  std::vector<std::filesystem::path> nodes;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev", ec))
    if (e.path().filename().string().rfind("nvidia", 0) == 0) nodes.push_back(e.path());
  return nodes;
}

std::string no_device_message(const GpuProbe& probe) {
  if (nvidia_device_nodes().empty()) return "no NVIDIA GPU or driver on this machine: compiled only";
  if (probe.error.find("cudaErrorInsufficientDriver") != std::string::npos)
    return "the NVIDIA driver here is older than this CUDA toolkit needs: compiled only (update the driver, "
           "or build the judge with an older toolkit)";
  if (probe.devices > 0) return "compiled only: " + probe.error + " (this machine has " +
                                counted(probe.devices, "CUDA device") + "; --device picks one)";
  return "compiled only: no usable CUDA device (" + probe.error + ")";
}

std::string nvcc_path() {
#ifdef HPCJUDGE_NVCC
  return HPCJUDGE_NVCC;
#else
  return "";
#endif
}

const GpuProbe& probe_gpu(const Paths& paths, int device) {
  static std::map<int, GpuProbe> cache;
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  GpuProbe g;
  const RunResult r = run_command({paths.runner.string(), "--probe", "--device", std::to_string(device)}, 60);
  const auto j = nlohmann::json::parse(r.output, nullptr, false);
  if (r.timed_out || j.is_discarded()) {
    g.error = "probing the GPU failed: " + r.output.substr(0, 200);
  } else {
    g.devices = j.value("devices", 0);
    g.error = j.value("error", "");
    if (j.contains("device")) g.device = j["device"];
  }
  return cache[device] = g;
}

std::string compute_sanitizer_path() {
  std::vector<fs::path> dirs;
  if (const std::string nvcc = nvcc_path(); !nvcc.empty()) dirs.push_back(fs::path(nvcc).parent_path());
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':')) dirs.push_back(d);
  }
  for (const auto& d : dirs)
    if (access((d / "compute-sanitizer").c_str(), X_OK) == 0) return (d / "compute-sanitizer").string();
  return "";
}

}  // namespace hpcjudge
