#include "paths.h"

#include <cstdlib>

namespace hpcjudge {

Paths Paths::discover() {
  namespace fs = std::filesystem;
  Paths p;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  p.runner = exe.parent_path() / "hpcjudge-runner";
  p.judge = exe;
  p.root = HPCJUDGE_SOURCE_DIR;
  if (const char* r = std::getenv("HPCJUDGE_ROOT")) p.root = r;
  p.cache = exe.parent_path().parent_path() / "cache";
  if (const char* c = std::getenv("HPCJUDGE_CACHE")) p.cache = c;
  p.reports = p.root / ".hpcjudge" / "reports";
  return p;
}

}  // namespace hpcjudge
