#include "judge/grading/compile.h"

#include <chrono>
#include <fstream>
#include <regex>

#include "judge/measure/gpu.h"
#include "judge/grading/libraries.h"
#include "judge/isolation/process.h"

namespace hpcjudge {

namespace fs = std::filesystem;

std::vector<std::string> compile_command(const Problem& p, const Paths& paths, const fs::path& src,
                                         const fs::path& out, const std::string& arch, bool vendor) {
  const fs::path header = fs::absolute(paths.problem_dir(p.info().slug) / "solve.h");
  std::vector<std::string> argv;
  if (p.info().source_ext == "cu") {
    // The shared CUDA runtime: the runner's own, so its cudaGetLastError sees the submission's launches.
    argv = {nvcc_path(), "-std=c++20", "-O3", "-arch=" + arch, "-cudart", "shared", "-Xcompiler", "-fPIC",
            "-shared", "-DHPCJUDGE_SUBMISSION", "-include", header.string(), fs::absolute(src).string(),
            "-Xlinker", "-z,defs",
            // Each kernel's registers, spills and shared memory, for the report (kernel_resources.h).
            "-Xptxas", "-v"};
    if (vendor) {
      // cuBLAS from the toolkit the judge was built with, found at run time without LD_LIBRARY_PATH.
      const fs::path lib = fs::path(nvcc_path()).parent_path().parent_path() / "lib64";
      argv.insert(argv.end(), {"-lcublas", "-Xlinker", "-rpath," + lib.string()});
    }
  } else {
    argv = {"g++",     "-std=c++20", "-O3",        "-march=native",     "-fopenmp", "-fPIC",
            "-shared", "-DHPCJUDGE_SUBMISSION",    "-include",          header.string(),
            fs::absolute(src).string(), "-Wl,-z,defs"};
#if defined(HPCJUDGE_CBLAS_INCLUDE) && defined(HPCJUDGE_OPENBLAS_LIBRARY)
    if (vendor) argv.insert(argv.end(), {std::string("-I") + HPCJUDGE_CBLAS_INCLUDE, HPCJUDGE_OPENBLAS_LIBRARY});
#endif
  }
  argv.insert(argv.end(), {"-o", out.string()});
  return argv;
}

std::string expected_signature(const Problem& p, const Paths& paths) {
  std::ifstream f(paths.problem_dir(p.info().slug) / "solve.h");
  std::string line, sig;
  while (std::getline(f, line))
    if (line.rfind("extern \"C\"", 0) == 0) sig += (sig.empty() ? "" : " ") + line;
  return sig;
}

namespace {
// The compiler's first error line, without the path of the temporary copy.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (line.find(" error: ") != std::string::npos || line.find(" fatal error: ") != std::string::npos) return line;
  return log.substr(0, log.find('\n'));
}
}  // namespace

CompileResult compile_submission(const Problem& p, const Paths& paths, const fs::path& src, const fs::path& out,
                                 const std::string& arch, bool vendor, const std::vector<std::string>& wrapper) {
  CompileResult r;
  std::vector<std::string> argv = wrapper;
  for (auto& a : compile_command(p, paths, src, out, arch, vendor)) argv.push_back(std::move(a));
  for (const auto& a : argv) r.command += (r.command.empty() ? "" : " ") + a;
  const auto t0 = std::chrono::steady_clock::now();
  // The library rule first: a forbidden header is CE even where the file would compile.
  std::string preprocess_error;
  const std::string forbidden = vendor ? "" : forbidden_library(p, included_headers(argv, preprocess_error));
  if (!forbidden.empty()) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.message = forbidden;
    r.log = forbidden + "\n";
    return r;
  }
  const RunResult run = run_command(argv, 120);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.log = run.output;
  r.ok = !run.timed_out && run.status.exited && run.status.code == 0;
  if (r.ok) {
    if (p.info().source_ext == "cu") r.kernels = parse_ptxas_info(r.log, arch);
    return r;
  }
  const std::string sig = expected_signature(p, paths);
  if (run.timed_out) {
    r.message = "compilation took longer than 120 s";
  } else if (std::regex_search(r.log, std::regex("conflicting declaration|ambiguating new declaration|"
                                                  "new declaration .*solve|declaration of C function|"
                                                  "declaration is incompatible|overloaded function \"solve\"|"
                                                  "cannot overload functions distinguished by return type|"
                                                  "differ only in their return type"))) {
    r.message = "solve() does not match the expected signature: " + sig;
  } else if (r.log.find("undefined reference to `solve'") != std::string::npos) {
    r.message = "no extern \"C\" solve() is defined; expected: " + sig;
  } else {
    r.message = first_error(r.log);
  }
  return r;
}

}  // namespace hpcjudge
