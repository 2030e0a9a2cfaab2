// Compiling a submission into a shared library the runner can load, with the
// problem's header force-included so a changed signature cannot compile.
//
// The compiler is untrusted: it is handed a copy of the submission and of the
// header in a folder of its own (its working folder and TMPDIR, where its
// output goes), runs with limits on memory, CPU time, file size and output, as
// the runner's unprivileged user id when the judge is root, and dies with the
// judge; under --sandbox it sees the system's and the CUDA toolkit's folders
// and its own, nothing else. Every file it read (the preprocessor's
// dependency list, and the assembler's, which names what `.incbin` took in) must
// be the copy, the header, or a system or CUDA header: anything else is CE
// naming the rule, and its log is not kept, so no file's content reaches a report.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sdk/problem.h"
#include "judge/grading/kernel_resources.h"
#include "judge/grading/libraries.h"
#include "judge/paths.h"

namespace hpcjudge {

struct CompileResult {
  bool ok = false;
  double seconds = 0;
  std::string command;  // as a shell would show it
  std::string log;      // the compiler's own output
  std::string message;  // one line for the verdict: the cause, in the judge's words
  std::vector<KernelResources> kernels;  // CUDA: each kernel's resources, from ptxas
  bool cached = false;  // the library was compiled earlier on this machine (compile_reference, _submission_cached)
};

struct CompileOptions {
  std::string arch;  // the GPU's "sm_XY" for CUDA problems (ignored for C++)
  // A vendor anchor of `judge bench`, linked against cuBLAS (CUDA) or OpenBLAS
  // (C++) and exempt from the problem's library rule.
  bool vendor = false;
  bool sandbox = false;  // the compiler under bubblewrap
  // A GPU problem compiled for the CUDA emulator (emulate/rewrite/rewrite.h): g++
  // against emulate/include, linked with the emulator's library, not nvcc.
  bool emulate = false;
  std::vector<std::filesystem::path> hidden;  // more paths the sandbox hides
  // The submission as its author named it (as typed, a relative path kept): the compiler's messages name it in
  // place of the judge's copy (the copy is byte for byte the file, so the line and column numbers hold), and the
  // problem's header by its own path, so that an editor can jump to the line. Empty: the copy's path.
  std::string source_name;
};

// The compiler's output with the judge's copy of the source (`copy`) named `shown` and the header beside it named
// by the problem's own solve.h: only where a path ends (before ':' or '(', g++'s and nvcc's "FILE:LINE:COL" and
// "FILE(LINE)", before ',' or '"', or at a line's end).
std::string name_sources(const std::string& log, const std::filesystem::path& copy, const std::string& shown,
                         const std::filesystem::path& header, const std::string& header_shown);

// The limits the compiler runs under.
inline constexpr size_t kCompilerMemory = size_t{4} << 30;      // address space, each process
inline constexpr size_t kPreprocessorMemory = size_t{1} << 30;  // the dependency pass
inline constexpr unsigned long kCompilerCpuSeconds = 120;
inline constexpr size_t kCompilerFileSize = size_t{512} << 20;  // its largest output file
inline constexpr size_t kCompilerLog = 256 * 1024;

// Compiles `source` (the submission's text) into compiled_library(`workdir`);
// `workdir` is a fresh folder of the judge's (TempDir).
CompileResult compile_submission(const Problem& p, const Paths& paths, const std::string& source,
                                 const std::filesystem::path& workdir, const CompileOptions& opt);

// The judge's own reference solution `role` compiled as compile_submission() does, once per
// machine, judge, problem and source: the library is cached under <cache>/compiled/ (keyed on the
// machine's fingerprint, which names its CPU and compilers, the CPU's feature flags, this judge's version,
// the problem's, the options, the emulator's headers where emulated, and the source) with what the
// compiler printed, and copied into `workdir` on a hit.
CompileResult compile_reference(const Problem& p, const Paths& paths, const std::string& role,
                                const std::string& source, const std::filesystem::path& workdir,
                                const CompileOptions& opt, const std::string& machine_fingerprint);

// A submission compiled as compile_submission() does, its library kept the same way (role
// "submission"; the 256 most recently used are kept) so that the same file judged again on this
// machine, by the same judge against the same problem, is not compiled again (CompileResult::cached,
// its log and kernel table as the compile left them). Only a compile that succeeded is kept: every
// check a compile makes (the files it read, the library rule) is a function of that key.
CompileResult compile_submission_cached(const Problem& p, const Paths& paths, const std::string& source,
                                        const std::filesystem::path& workdir, const CompileOptions& opt,
                                        const std::string& machine_fingerprint);

// The emulator's headers and the folder of its library (the runner's).
std::filesystem::path emulator_include(const Paths& paths);
std::filesystem::path emulator_library_dir(const Paths& paths);

// The library compile_submission() leaves in `workdir` (and a compile-cache hit copies there): a name
// no other user can guess (this judge's secret hashed with the folder's path), in a folder others may pass
// through but not list, so that only the runner told the name loads it.
std::filesystem::path compiled_library(const std::filesystem::path& workdir);

// The declarations of problems/<slug>/solve.h, one per line, as a student must write them.
std::string expected_signature(const Problem& p, const Paths& paths);

// The first of `deps` (relative ones taken from `cwd`) that is not inside one
// of `allowed` (folders or files), after following symbolic links; "" if none.
std::string first_outside(const std::vector<std::string>& deps, const std::filesystem::path& cwd,
                          const std::vector<std::filesystem::path>& allowed);

}  // namespace hpcjudge
