#include "judge/isolation/sandbox.h"

#include "judge/measure/gpu.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace hpcjudge {

namespace fs = std::filesystem;

std::string bubblewrap_path() {
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':'))
      if (access((fs::path(d) / "bwrap").c_str(), X_OK) == 0) return (fs::path(d) / "bwrap").string();
  }
  return "";
}

std::vector<std::string> sandbox_wrapper(const Paths& paths, const fs::path& submission_dir, bool gpu,
                                         bool writable, const std::vector<fs::path>& also) {
  std::vector<std::string> w = {bubblewrap_path(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
                                "--tmpfs", "/tmp", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                                "--die-with-parent"};
  // The GPU's device nodes, and nothing else of the host's /dev.
  if (gpu)
    for (const fs::path& node : nvidia_device_nodes()) w.insert(w.end(), {"--dev-bind", node.string(), node.string()});
  // The runner and the compiled submission, read-only, also where they live under
  // /tmp (a checkout or a build there), which the private /tmp would hide.
  w.insert(w.end(), {"--ro-bind", paths.runner.parent_path().string(), paths.runner.parent_path().string()});
  w.insert(w.end(), {writable ? "--bind" : "--ro-bind", submission_dir.string(), submission_dir.string()});
  for (const fs::path& dir : also) w.insert(w.end(), {"--ro-bind", dir.string(), dir.string()});
  // The answers and the tests are not the submission's to read.
  // Nor are cached reference answers and scales, or earlier reports.
  for (const fs::path& hidden : {paths.root / "reference", paths.root / "tests", paths.cache, paths.root / ".hpcjudge"})
    if (fs::is_directory(hidden)) w.insert(w.end(), {"--tmpfs", hidden.string()});
  w.insert(w.end(), {"--chdir", "/tmp"});
  return w;
}

}  // namespace hpcjudge
