#include "judge/grading/libraries.h"

#include <algorithm>
#include <sstream>

#include "judge/isolation/process.h"

namespace hpcjudge {

const std::vector<LibraryFamily>& library_families() {
  static const std::vector<LibraryFamily> f = {
      {"blas", "BLAS/LAPACK (OpenBLAS, MKL, cblas)", {"/cblas.h", "/f77blas.h", "/openblas", "/mkl", "/lapack"}},
      {"cublas", "cuBLAS", {"/cublas"}},
      {"cudnn", "cuDNN", {"/cudnn"}},
      {"cutlass", "CUTLASS/CuTe", {"/cutlass/", "/cute/"}},
      {"thrust", "Thrust", {"/thrust/"}},
      {"cub", "CUB", {"/cub/"}},
      {"cusparse", "cuSPARSE", {"/cusparse"}},
      {"cufft", "cuFFT", {"/cufft"}},
      {"curand", "cuRAND", {"/curand"}},
      {"eigen", "Eigen", {"/eigen3/", "/Eigen/"}},
  };
  return f;
}

std::string library_rule(const Problem& p) {
  const ProblemInfo& i = p.info();
  std::string base = i.kind == Kind::GPU ? "the C++ standard library and the CUDA runtime"
                                         : "the C++ standard library and OpenMP";
  std::vector<std::string> extra;
  for (const auto& f : library_families())
    if (std::find(i.allowed_libraries.begin(), i.allowed_libraries.end(), f.name) != i.allowed_libraries.end())
      extra.push_back(f.title);
  if (extra.empty()) return i.slug + " allows " + base + " only";
  std::string s = i.slug + " allows " + base;
  for (const auto& e : extra) s += ", " + e;
  return s;
}

std::string forbidden_library(const Problem& p, const std::vector<std::string>& headers) {
  const auto& allowed = p.info().allowed_libraries;
  for (const auto& h : headers)
    for (const auto& f : library_families()) {
      if (std::find(allowed.begin(), allowed.end(), f.name) != allowed.end()) continue;
      for (const auto& m : f.markers)
        if (h.find(m) != std::string::npos)
          return "uses " + f.title + " (" + h + "), which is not allowed: " + library_rule(p);
    }
  return "";
}

Preprocessed included_headers(SpawnOptions compile) {
  // The compile command with its output replaced by a dependency listing.
  const std::vector<std::string> compile_argv = compile.argv;
  std::vector<std::string>& argv = compile.argv;
  argv.clear();
  for (size_t i = 0; i < compile_argv.size(); ++i) {
    if (compile_argv[i] == "-o") {
      ++i;
      continue;
    }
    if (compile_argv[i] == "-shared" || compile_argv[i].rfind("-Wl,", 0) == 0) continue;
    if (compile_argv[i] == "-Xlinker") {
      ++i;
      continue;
    }
    argv.push_back(compile_argv[i]);
  }
  argv.push_back("-M");
  compile.output_limit = 4 << 20;
  const RunResult r = run_command(compile, 120);
  Preprocessed pre;
  std::vector<std::string>& headers = pre.headers;
  if (r.timed_out || !r.status.exited || r.status.code != 0) {
    pre.log = r.output;
    pre.status = r.timed_out ? "it took longer than 120 s" : r.status.describe();
    return pre;
  }
  pre.ok = true;
  // The submission and its force-included header are the judge's own inputs, not libraries.
  for (const std::string& path : dependency_paths(r.output))
    if (std::find(argv.begin(), argv.end(), path) == argv.end()) headers.push_back(path);
  return pre;
}

std::vector<std::string> dependency_paths(const std::string& rule) {
  std::vector<std::string> paths;
  std::string token;
  bool targets = true;  // before the first "target:"
  auto flush = [&] {
    if (token.empty()) return;
    if (targets) {
      if (token.back() == ':') targets = false;
    } else {
      // A later rule's target (the empty rules `-MP` and the linker's `--dependency-file` add for each file
      // listed) is a path all the same, checked without its colon.
      if (token.back() == ':') token.pop_back();
      if (!token.empty()) paths.push_back(token);
    }
    token.clear();
  };
  for (size_t i = 0; i < rule.size(); ++i) {
    const char c = rule[i];
    if (c == '\\' && i + 1 < rule.size() && (rule[i + 1] == '\n' || rule[i + 1] == '\r')) {
      flush();
      ++i;
    } else if (c == '\\' && i + 1 < rule.size() && (rule[i + 1] == ' ' || rule[i + 1] == '#')) {
      token += rule[++i];
    } else if (c == '$' && i + 1 < rule.size() && rule[i + 1] == '$') {
      token += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else {
      token += c;
    }
  }
  flush();
  return paths;
}

std::string library_under_emulation(const Problem& p, const std::string& header) {
  if (std::string forbidden = forbidden_library(p, {"/" + header}); !forbidden.empty()) return forbidden;
  for (const LibraryFamily& f : library_families())
    for (const std::string& marker : f.markers)
      if (("/" + header).find(marker) != std::string::npos)
        return "not supported by CPU emulation: " + f.title + " (" + header + "); judge on a GPU";
  return "";
}

}  // namespace hpcjudge
