#include "judge/isolation/sandbox.h"

#include "protocol/private_tmp.h"
#include "judge/machine/gpu.h"
#include "settings/settings.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace hpcjudge {

namespace fs = std::filesystem;

std::string bubblewrap_path() {
  for (const std::string& d : settings::path_folders())
    if (access((fs::path(d) / "bwrap").c_str(), X_OK) == 0) return (fs::path(d) / "bwrap").string();
  return "";
}

std::vector<fs::path> hidden_from_runners(const Paths& paths, const std::vector<fs::path>& more) {
  std::vector<fs::path> hidden = {paths.root / "problems" / "families", paths.root / "tests", paths.cache,
                                  paths.root / ".hpcjudge"};
  // Each problem's solutions and submissions corpus, wherever its package has them.
  std::error_code ec;
  for (const auto& problem : fs::directory_iterator(paths.root / "problems", ec))
    for (const char* answers : {"solutions", "submissions"})
      if (fs::is_directory(problem.path() / answers, ec)) hidden.push_back(problem.path() / answers);
  hidden.insert(hidden.end(), more.begin(), more.end());
  return hidden;
}

namespace {
// The paths to hide, each as an absolute path without "." or "..", less those inside another folder hidden:
// hidden already, and bubblewrap could not make their mount points in that folder's read-only tmpfs (a results
// folder inside the class folder ended every runner and compiler "Can't mkdir ...: Read-only file system").
std::vector<fs::path> outermost(const std::vector<fs::path>& paths) {
  std::vector<fs::path> all;
  for (const fs::path& p : paths) {
    fs::path n = fs::absolute(p).lexically_normal();
    if (!n.has_filename() && n != n.root_path()) n = n.parent_path();  // "/a/b/" as "/a/b"
    all.push_back(n);
  }
  std::vector<fs::path> kept;
  for (const fs::path& p : all) {
    const bool inside = std::any_of(all.begin(), all.end(), [&](const fs::path& q) {
      std::error_code ec;
      const fs::path rel = p.lexically_relative(q);
      return q != p && !rel.empty() && *rel.begin() != ".." && fs::is_directory(q, ec);
    });
    if (!inside && std::find(kept.begin(), kept.end(), p) == kept.end()) kept.push_back(p);
  }
  return kept;
}
}  // namespace

std::vector<std::string> sandbox_wrapper(const Paths& paths, const SandboxOptions& opt) {
  std::vector<std::string> w = {bubblewrap_path()};
  // Folders the compiler needs that may lie under /tmp (a checkout or an nvcc
  // there): bound after the private /tmp, which would hide them.
  std::vector<std::string> tools;
  if (opt.compiler) {
    // The programs, libraries and headers of the system and the CUDA toolkit
    // (wherever it is installed), and nothing of home folders, class folders,
    // results or other judges' temporary folders.
    for (const char* dir : {"/usr", "/etc", "/opt"})
      if (fs::is_directory(dir)) w.insert(w.end(), {"--ro-bind", dir, dir});
    for (const char* link : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
      std::error_code ec;
      if (fs::is_symlink(link, ec)) w.insert(w.end(), {"--symlink", fs::read_symlink(link, ec).string(), link});
      else if (fs::is_directory(link, ec)) w.insert(w.end(), {"--ro-bind", link, link});
    }
    if (const std::string nvcc = nvcc_path(); !nvcc.empty()) {
      // nvcc as the judge calls it (perhaps a wrapper) and the toolkit it leads to.
      std::error_code ec;
      const fs::path wrapper = fs::canonical(fs::path(nvcc), ec).parent_path();
      if (!ec) tools.insert(tools.end(), {"--ro-bind", wrapper.string(), wrapper.string()});
      const fs::path top = cuda_toolkit().top;
      if (!top.empty()) tools.insert(tools.end(), {"--ro-bind", top.string(), top.string()});
    }
    for (const fs::path& dir : opt.read_only) tools.insert(tools.end(), {"--ro-bind", dir.string(), dir.string()});
  } else {
    w.insert(w.end(), {"--ro-bind", "/", "/"});
  }
  const std::string size = std::to_string(opt.tmp_bytes);
  w.insert(w.end(), {"--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/tmp", "--size", size, "--tmpfs",
                     "/dev/shm", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-pid", "--die-with-parent",
                     "--new-session"});
  w.insert(w.end(), tools.begin(), tools.end());
  // The GPU's device nodes, and nothing else of the host's /dev.
  if (opt.gpu)
    for (const fs::path& node : nvidia_device_nodes()) w.insert(w.end(), {"--dev-bind", node.string(), node.string()});
  // The runner and the compiled submission, read-only, also where they live under
  // /tmp (a checkout or a build there), which the private /tmp would hide. The
  // runner's temporary folder, the one it may write in (runner/confine.h), is the
  // private /tmp, whatever folder of its own the judge named outside.
  if (!opt.compiler)
    w.insert(w.end(), {"--ro-bind", paths.runner.parent_path().string(), paths.runner.parent_path().string(),
                       "--setenv", settings::kTmpdir.name, "/tmp", "--setenv", settings::kPrivateTmp.name, "1"});
  // The answers and the tests are not the submission's to read, nor are cached
  // reference answers and scales, earlier reports, or what the judge names.
  for (const fs::path& h : outermost(hidden_from_runners(paths, opt.hidden))) {
    std::error_code ec;
    if (fs::is_directory(h, ec)) w.insert(w.end(), {"--tmpfs", h.string(), "--remount-ro", h.string()});
    else if (fs::exists(h, ec)) w.insert(w.end(), {"--ro-bind", "/dev/null", h.string()});
  }
  // Bound last, so that its folder is there even inside a hidden one.
  w.insert(w.end(), {opt.compiler ? "--bind" : "--ro-bind", opt.folder.string(), opt.folder.string()});
  w.insert(w.end(), {"--chdir", opt.compiler ? opt.folder.string() : "/tmp"});
  return w;
}

}  // namespace hpcjudge
