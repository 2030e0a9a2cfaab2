// --sandbox: the runner child under bubblewrap (Debian's `bubblewrap`). No
// network, the whole filesystem read-only, a private /tmp, a minimal /dev
// plus the GPU's device nodes, and the repository's reference/ and tests/
// hidden. The compiled submission is bound in read-only. The compiler runs
// sandboxed too, writing only its own folder: an #include of a reference
// solution, a test or a cached answer finds nothing.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "judge/paths.h"

namespace hpcjudge {

// bwrap on PATH ("" when not installed).
std::string bubblewrap_path();

// The command the runner (or, with `writable`, the compiler writing into
// submission_dir) is started under.
// `also` are more folders bound in read-only (the problem's folder, for the
// compiler: its solve.h is force-included), for a checkout under /tmp.
std::vector<std::string> sandbox_wrapper(const Paths& paths, const std::filesystem::path& submission_dir, bool gpu,
                                         bool writable = false, const std::vector<std::filesystem::path>& also = {});

}  // namespace hpcjudge
