// The emulator's counts of one tiny .cu, read as the runner reads them (tests/estimate/check_counts.py): the file
// compiled as the judge compiles an emulated submission (compile_submission, --emulate), loaded with the emulator
// set up as the runner sets it up, its `extern "C" void hpcjudge_probe()` called as one counted call, and the
// counts printed as the protocol carries them (protocol/emulation_counts.h).
//   hpcjudge-count-probe SLUG FILE.cu [--no-count]   (FILE defines SLUG's solve() and hpcjudge_probe())
// --no-count: the call run uncounted and its seconds printed, to measure what counting costs.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "emulate/runtime/runner.h"
#include "judge/files.h"
#include "judge/grading/compile.h"
#include "judge/paths.h"
#include "runner/emulation_counts.h"
#include "sdk/problem.h"

namespace {

int fail(const std::string& why) {
  std::cerr << "count_probe: " << why << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const bool count = argc == 3;
  if (argc != 3 && !(argc == 4 && std::string(argv[3]) == "--no-count"))
    return fail("usage: hpcjudge-count-probe SLUG FILE.cu [--no-count]");
  const hpcjudge::Problem* p = hpcjudge::Registry::find(argv[1]);
  if (!p) return fail(std::string("no problem ") + argv[1]);
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream source;
  source << in.rdbuf();
  if (!in) return fail(std::string("cannot read ") + argv[2]);
  const hpcjudge::TempDir dir;
  hpcjudge::CompileOptions opt;
  opt.emulate = true;
  const hpcjudge::CompileResult c =
      hpcjudge::compile_submission(*p, hpcjudge::Paths::discover(), source.str(), dir.path, opt);
  if (!c.ok) return fail("compile failed: " + c.message + "\n" + c.log);
  const int arena = memfd_create("hpcjudge-count-probe", MFD_CLOEXEC);
  if (arena < 0 || ftruncate(arena, 1 << 20) != 0) return fail("no arena");
  hpcjudge_emu::runner::setup(arena);
  hpcjudge_emu::runner::map_arena(1 << 20);
  void* lib = dlopen(hpcjudge::compiled_library(dir.path).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail(dlerror());
  auto probe = reinterpret_cast<void (*)()>(dlsym(lib, "hpcjudge_probe"));
  if (!probe) return fail("no extern \"C\" hpcjudge_probe()");
  hpcjudge_emu::runner::begin_call(0);
  hpcjudge_emu::runner::count_accesses(count);
  const auto t0 = std::chrono::steady_clock::now();
  probe();
  const std::string error = hpcjudge_emu::runner::end_call().error;
  hpcjudge_emu::runner::count_accesses(false);
  const hpcjudge_emu::runner::Counts counts = hpcjudge_emu::runner::take_counts();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!error.empty()) return fail("the call failed: " + error);
  std::cerr << "count_probe: the call took " << seconds << " s" << (count ? " (counted)" : " (not counted)") << "\n";
  if (!count) return 0;
  std::cout << nlohmann::json(hpcjudge::to_protocol(counts)).dump(1) << "\n";
  return 0;
}
