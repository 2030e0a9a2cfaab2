// The source rewrite of CPU emulation (emulate/rewrite/rewrite.h): launches and
// __shared__ declarations, on the same lines, comments and literals untouched.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>

#include "sdk/problem.h"
#include "emulate/rewrite/rewrite.h"
#include "judge/grading/libraries.h"

using hpcjudge::rewrite_for_emulation;

namespace {
size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }
const char* kLaunch = "::hpcjudge_emu::kernel_launch(";
}  // namespace

TEST_CASE("a launch becomes a call, its arguments left to follow") {
  const std::string out = rewrite_for_emulation("void f() { add<<<grid, 256>>>(a, b, n); }\n");
  CHECK(out ==
        "void f() { ::hpcjudge_emu::kernel_launch(\"add\", ::hpcjudge_emu::LaunchConfig(grid, 256), [&](auto&&... "
        "hpcjudge_args) { add(hpcjudge_args...); })(a, b, n); }\n");
}

TEST_CASE("a launch of a qualified template with nested parentheses and shifts in its configuration") {
  const std::string src =
      "x = 1; ns::scan<T, (N > 2) ? 4 : 8><<<dim3((n + 255) >> 8, 1), f(g(1), 2), 0, s>>>(p, q);\n";
  const std::string out = rewrite_for_emulation(src);
  CHECK(out.find("kernel_launch(\"ns::scan<T, (N > 2) ? 4 : 8>\"") != std::string::npos);
  CHECK(out.find("LaunchConfig(dim3((n + 255) >> 8, 1), f(g(1), 2), 0, s)") != std::string::npos);
  CHECK(out.find("{ ns::scan<T, (N > 2) ? 4 : 8>(hpcjudge_args...); })(p, q);") != std::string::npos);
  CHECK(out.find("<<<") == std::string::npos);
}

TEST_CASE("launches in comments and literals are left alone, and lines are kept") {
  const std::string src =
      "// k<<<1, 1>>>() in a comment\n"
      "/* k<<<2, 2>>>() */ const char* s = \"k<<<3, 3>>>()\"; char c = '<';\n"
      "k<<<g,\n"
      "    b>>>(x);\n"
      "int after = __LINE__;\n";
  const std::string out = rewrite_for_emulation(src);
  CHECK(out.find("// k<<<1, 1>>>() in a comment") != std::string::npos);
  CHECK(out.find("/* k<<<2, 2>>>() */") != std::string::npos);
  CHECK(out.find("\"k<<<3, 3>>>()\"") != std::string::npos);
  CHECK(out.find(kLaunch) != std::string::npos);
  CHECK(lines(out) == lines(src));
  // The line of `after` is still the fifth.
  size_t at = 0;
  for (int i = 0; i < 4; ++i) at = out.find('\n', at) + 1;
  CHECK(out.compare(at, 10, "int after ") == 0);
}

TEST_CASE("__shared__ declarations become references to the emulator's shared memory") {
  const std::string src =
      "#define TILE 16\n"
      "__global__ void k() {\n"
      "  __shared__ float As[TILE][TILE], b;\n"
      "  volatile __shared__ int flags[32];\n"
      "}\n"
      "extern __shared__ __align__(16) float4 dyn[];\n";
  const std::string out = rewrite_for_emulation(src);
  CHECK(out.find("#define TILE 16\n") == 0);
  // A slot of its own per declaration (its place in every worker's window), the reference taken at each entry.
  CHECK(out.find("static ::hpcjudge_emu::SharedSlot hpcjudge_shared_As; auto& As = "
                 "::hpcjudge_emu::shared<float[TILE][TILE]>(hpcjudge_shared_As, \"As\", 3);") != std::string::npos);
  CHECK(out.find("static ::hpcjudge_emu::SharedSlot hpcjudge_shared_b; auto& b = "
                 "::hpcjudge_emu::shared<float>(hpcjudge_shared_b, \"b\", 3);") != std::string::npos);
  CHECK(out.find("::hpcjudge_emu::shared<volatile") != std::string::npos);
  CHECK(out.find("float4* const dyn = ::hpcjudge_emu::dynamic<float4>(\"dyn\");") != std::string::npos);
  CHECK(out.find("__shared__") == std::string::npos);
  CHECK(lines(out) == lines(src));
}

TEST_CASE("__shared__ in a switch's case without braces: a reference a jump to a later label may cross") {
  const std::string src =
      "__global__ void k(int m) {\n"
      "  switch (m) {\n"
      "    case 0:\n"
      "      __shared__ int tile[64];\n"
      "      tile[0] = 1;\n"
      "      break;\n"
      "    default: { __shared__ float f; f = 2; }\n"
      "  }\n"
      "  if (m) { __shared__ int plain; plain = 3; }\n"
      "}\n";
  const std::string out = rewrite_for_emulation(src);
  // The label stays a label; the switch's body gets the static thread_local form, a braced case or an if's body
  // the automatic one.
  CHECK(out.find("case 0:") != std::string::npos);
  CHECK(out.find("static thread_local auto& tile = ::hpcjudge_emu::shared<int[64]>(hpcjudge_shared_tile, \"tile\", 4);") !=
        std::string::npos);
  CHECK(out.find("hpcjudge_shared_f; auto& f = ") != std::string::npos);
  CHECK(out.find("hpcjudge_shared_plain; auto& plain = ") != std::string::npos);
  CHECK(out.find("__shared__") == std::string::npos);
  CHECK(lines(out) == lines(src));
}

TEST_CASE("what the emulator cannot run is named") {
  const hpcjudge::Problem* p = hpcjudge::Registry::find("softmax-gpu");
  REQUIRE(p);
  const auto unsupported_for_emulation = [p](const std::string& source) {
    return hpcjudge::unsupported_for_emulation(
        source, [p](const std::string& h) { return hpcjudge::library_under_emulation(*p, h); });
  };
  CHECK(unsupported_for_emulation("__global__ void k() { asm volatile(\"bar.sync 0;\"); }").find(
            "not supported by CPU emulation: inline PTX") != std::string::npos);
  CHECK(unsupported_for_emulation("#include <mma.h>\nusing namespace nvcuda;").find("wmma") != std::string::npos);
  // A library the problem forbids: the GPU compile's own message.
  CHECK(unsupported_for_emulation("#include <cub/cub.cuh>\n").find("uses CUB") != std::string::npos);
  // In a comment or a string it is nothing.
  CHECK(unsupported_for_emulation("// asm(\"x\")\nconst char* s = \"wmma::\";\n").empty());
  CHECK(hpcjudge::unsupported_in_log("x.cu:3:5: error: 'cudaGraphLaunch' was not declared in this scope") ==
        "not supported by CPU emulation: cudaGraphLaunch; judge on a GPU");
}

TEST_CASE("code only: comments and literals blanked, raw strings to their own delimiter") {
  const std::string src = "int a; // k<<<1,1>>>\n/* x */ const char* s = \"q\\\"<<<\"; char c = '\\'';\n"
                          "auto r = R\"xy(a )\" b)xy\"; int d = 0x1'000;\n";
  const std::string out = hpcjudge::code_only(src);
  CHECK(out.size() == src.size());
  CHECK(out ==
        "int a;              \n        const char* s = \"      \"; char c = '  ';\n"
        "auto r = R              ; int d = 0x1'000;\n");
}
