#include "judge/machine/gpu.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <sstream>

#include "sdk/text.h"
#include "protocol/untrusted_json.h"
#include "judge/isolation/process.h"
#include "settings/settings.h"

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
  const auto j = parse_untrusted_json(r.output, 1 << 20);
  if (r.timed_out || j.is_discarded()) {
    g.error = "probing the GPU failed: " + r.output.substr(0, 200);
  } else {
    g.devices = j.value("devices", 0);
    g.error = j.value("error", "");
    if (j.contains("device")) g.device = j["device"];
  }
  return cache[device] = g;
}

CudaToolkit parse_nvcc_dryrun(const std::string& out) {
  CudaToolkit t;
  std::istringstream in(out);
  std::string line;
  // The quoted or bare words of a line, quotes removed.
  auto words = [](const std::string& s) {
    std::vector<std::string> w;
    std::string cur;
    bool quoted = false, any = false;
    for (char c : s) {
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (!quoted && (c == ' ' || c == '\t')) {
        if (any || !cur.empty()) w.push_back(cur);
        cur.clear();
        any = false;
      } else {
        cur += c;
      }
    }
    if (any || !cur.empty()) w.push_back(cur);
    return w;
  };
  while (std::getline(in, line)) {
    if (line.rfind("#$ TOP=", 0) == 0) {
      t.top = line.substr(7);
    } else if (line.rfind("#$ INCLUDES=", 0) == 0 || line.rfind("#$ SYSTEM_INCLUDES=", 0) == 0) {
      const std::vector<std::string> w = words(line.substr(line.find('=') + 1));
      for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] == "-isystem" || w[i] == "-I") {
          if (i + 1 < w.size()) t.include_dirs.push_back(w[++i]);
        } else if (w[i].rfind("-I", 0) == 0) {
          t.include_dirs.push_back(w[i].substr(2));
        }
      }
    }
  }
  return t;
}

const CudaToolkit& cuda_toolkit() {
  static const CudaToolkit toolkit = [] {
    CudaToolkit t;
    const std::string nvcc = nvcc_path();
    if (nvcc.empty()) return t;
    const RunResult r = run_command({nvcc, "--dryrun", "-x", "cu", "-c", "/dev/null", "-o", "/dev/null"}, 60);
    if (!r.timed_out && r.status.exited && r.status.code == 0) t = parse_nvcc_dryrun(r.output);
    std::error_code ec;
    if (t.top.empty()) t.top = fs::canonical(nvcc, ec).parent_path().parent_path();
    auto canon = [](fs::path& p) {
      std::error_code e;
      const fs::path c = fs::canonical(p, e);
      if (!e) p = c;
    };
    canon(t.top);
    for (fs::path& d : t.include_dirs) canon(d);
    return t;
  }();
  return toolkit;
}

std::string compute_sanitizer_path() {
  std::vector<fs::path> dirs;
  if (const std::string nvcc = nvcc_path(); !nvcc.empty()) dirs.push_back(fs::path(nvcc).parent_path());
  if (!cuda_toolkit().top.empty()) dirs.push_back(cuda_toolkit().top / "bin");
  for (const std::string& d : settings::path_folders()) dirs.push_back(d);
  for (const auto& d : dirs)
    if (access((d / "compute-sanitizer").c_str(), X_OK) == 0) return (d / "compute-sanitizer").string();
  return "";
}

}  // namespace hpcjudge
