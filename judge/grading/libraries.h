// Per-problem rules on libraries. A submission may use the C++ standard
// library, OpenMP (CPU problems) and the CUDA runtime (GPU problems); the
// libraries below only where its problem allows them (ProblemInfo::
// allowed_libraries). Headers are what a single-file submission can use a
// library through, so the rule is checked on the headers it includes (the
// compiler's own dependency list), before it is compiled.
#pragma once
#include <string>
#include <vector>

#include "sdk/problem.h"
#include "judge/isolation/process.h"
#include "judge/paths.h"

namespace hpcjudge {

struct LibraryFamily {
  std::string name;     // as problems name it in allowed_libraries: "cublas", "cub", ...
  std::string title;    // as messages say it: "cuBLAS"
  std::vector<std::string> markers;  // a header path containing one of these belongs to the family
};

const std::vector<LibraryFamily>& library_families();

// "softmax-gpu allows the C++ standard library and the CUDA runtime only".
std::string library_rule(const Problem& p);

// The first forbidden library a header list uses, as a CE message; "" when none.
std::string forbidden_library(const Problem& p, const std::vector<std::string>& headers);

// A header an emulated submission includes (`#include <h>`), as its CE message where it is a library: the GPU
// compile's own where the problem forbids it, else not supported by CPU emulation; "" where it is none
// (emulate/rewrite/rewrite.h asks).
std::string library_under_emulation(const Problem& p, const std::string& header);

// The headers a compile includes, as the compiler resolves them: its command
// run (with its limits, user and folder) as a dependency listing.
struct Preprocessed {
  bool ok = false;
  std::vector<std::string> headers;  // the submission and its force-included header left out
  std::string log;                   // the preprocessor's output when it failed
  std::string status;                // how it ended, when it failed
};
Preprocessed included_headers(SpawnOptions compile);

// The paths a Makefile-style dependency list (gcc -MD, as --MD, ld --dependency-file) names: the first rule's
// targets left out, later rules' targets (the empty rules of -MP and ld) kept as paths.
std::vector<std::string> dependency_paths(const std::string& make_rule);

}  // namespace hpcjudge
