// --sandbox: the runner child under bubblewrap (Debian's `bubblewrap`). No
// network, its own PID namespace (it sees no other process, and every process
// it starts dies with it) and session (no controlling terminal), the whole
// filesystem read-only, a private /tmp and /dev/shm of bounded size, a
// minimal /dev plus the GPU's device nodes, and the repository's answers
// (each problem's solutions/ and submissions/, problems/families/) and tests/,
// the judge's caches and reports and whatever else the judge names
// (a batch's class folder, results folder and seed file) hidden. The compiled
// submission is bound in read-only. The compiler runs sandboxed too, writing
// only its own folder, and sees less still: the system's and the CUDA
// toolkit's folders, the problem's folder and its own, nothing else.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "judge/paths.h"

namespace hpcjudge {

// bwrap on PATH ("" when not installed).
std::string bubblewrap_path();

struct SandboxOptions {
  std::filesystem::path folder;  // the submission's folder: bound read-only (the runner) or writable (the compiler)
  bool gpu = false;              // the GPU's device nodes
  bool compiler = false;         // the compiler: `folder` writable and its working folder, the system's folders only
  std::vector<std::filesystem::path> hidden = {};  // more paths hidden: a folder under an empty tmpfs, a file as /dev/null
  std::vector<std::filesystem::path> read_only = {};  // more folders the compiler sees, read-only (the CUDA emulator's)
  // The size of each of its own tmpfs mounts, /tmp and /dev/shm: a runner's memory limit, which what it writes
  // there counts against (protocol/private_tmp.h).
  size_t tmp_bytes = size_t{1} << 30;
};

// What no runner may read: the repository's answers (each problem's solutions/ and submissions/, and
// problems/families/: the families' CPU references) and tests/, the judge's cache (cached
// reference answers and scales, the compiled references and other participants' libraries), its reports
// (.hpcjudge/), and `more` (what the judge names). The sandbox hides them by mounts; a runner of the judge's own
// user without it, by Landlock (runner/confine.h: `hpcjudge-runner --hide`).
std::vector<std::filesystem::path> hidden_from_runners(const Paths& paths,
                                                       const std::vector<std::filesystem::path>& more);

// The command the runner or the compiler is started under.
std::vector<std::string> sandbox_wrapper(const Paths& paths, const SandboxOptions& opt);

}  // namespace hpcjudge
