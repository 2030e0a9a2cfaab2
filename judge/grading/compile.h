// Compiling a submission into a shared library the runner can load, with the
// problem's header force-included so a changed signature cannot compile.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/problem.h"
#include "judge/grading/kernel_resources.h"
#include "judge/paths.h"

namespace hpcjudge {

struct CompileResult {
  bool ok = false;
  double seconds = 0;
  std::string command;  // as a shell would show it
  std::string log;      // the compiler's own output
  std::string message;  // one line for the verdict: the cause, in the judge's words
  std::vector<KernelResources> kernels;  // CUDA: each kernel's resources, from ptxas
};

// arch: the GPU's "sm_XY" for CUDA problems (ignored for C++). vendor: a vendor
// anchor of `judge bench`, linked against cuBLAS (CUDA) or OpenBLAS (C++) and
// exempt from the problem's library rule.
std::vector<std::string> compile_command(const Problem& p, const Paths& paths, const std::filesystem::path& src,
                                         const std::filesystem::path& out, const std::string& arch,
                                         bool vendor = false);

// wrapper: what the compiler runs under (the sandbox), or empty.
CompileResult compile_submission(const Problem& p, const Paths& paths, const std::filesystem::path& src,
                                 const std::filesystem::path& out, const std::string& arch, bool vendor = false,
                                 const std::vector<std::string>& wrapper = {});

// The declarations of problems/<slug>/solve.h, one per line, as a student must write them.
std::string expected_signature(const Problem& p, const Paths& paths);

}  // namespace hpcjudge
