// Each kernel's resources from nvcc -Xptxas -v: the log below is nvcc 13.0's own output
// for three kernels (a plain one, a template with a per-thread array and static shared
// memory, a C++ one), compiled for sm_90.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "judge/grading/kernel_resources.h"

using namespace hpcjudge;
using Catch::Matchers::ContainsSubstring;

namespace {
const char* kLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'plain' for 'sm_90'
ptxas info    : Function properties for plain
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compile time = 2.063 ms
ptxas info    : Compiling entry function '_Z5tiledILi32EEvPKfPf' for 'sm_90'
ptxas info    : Function properties for _Z5tiledILi32EEvPKfPf
    256 bytes stack frame, 24 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 116 registers, used 1 barriers, 256 bytes cumulative stack size, 4096 bytes smem
ptxas info    : Compile time = 20.454 ms
ptxas info    : Compiling entry function '_Z10add_kernelPKfS0_Pfi' for 'sm_90'
ptxas info    : Function properties for _Z10add_kernelPKfS0_Pfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compile time = 1.318 ms
)";
}  // namespace

TEST_CASE("parse_ptxas_info: every kernel, demangled, with its registers, spills and shared memory") {
  const auto k = parse_ptxas_info(kLog, "sm_90");
  REQUIRE(k.size() == 3);
  CHECK(k[0].name == "plain");
  CHECK(k[0].registers == 12);
  CHECK(k[0].shared_bytes == 0);
  CHECK_FALSE(k[0].blocks_by_shared);
  CHECK(k[1].name == "void tiled<32>(float const*, float*)");
  CHECK(k[1].mangled == "_Z5tiledILi32EEvPKfPf");
  CHECK(k[1].registers == 116);
  CHECK(k[1].barriers == 1);
  CHECK(k[1].stack_bytes == 256);
  CHECK(k[1].spill_store_bytes == 24);
  CHECK(k[1].spill_load_bytes == 16);
  CHECK(k[1].shared_bytes == 4096);
  CHECK(k[2].name == "add_kernel(float const*, float const*, float*, int)");
}

TEST_CASE("parse_ptxas_info: the occupancy the registers allow on the architecture") {
  const auto k = parse_ptxas_info(kLog, "sm_90");
  // 12 registers: 384 per warp, 512 allocated; 65536 / 512 = 128 warps > 64: every slot.
  REQUIRE(k[0].occupancy_by_registers);
  CHECK(*k[0].occupancy_by_registers == 1.0);
  // 116 registers: 3712 per warp, 3840 allocated; 65536 / 3840 = 17 warps of 64.
  REQUIRE(k[1].occupancy_by_registers);
  CHECK(*k[1].occupancy_by_registers == 17.0 / 64);
  // 4 KiB of static shared memory (and 1 KiB the system reserves): 228 KiB allow 45
  // blocks, above sm_90's 32.
  CHECK(k[1].blocks_by_shared == 32);
  CHECK_THAT(k[1].describe(), ContainsSubstring("SPILLS 24 B stored / 16 B loaded"));
  CHECK_THAT(k[1].describe(), ContainsSubstring("the registers allow 27% occupancy"));
  CHECK_THAT(k[0].describe(), ContainsSubstring("no spills"));
  // An architecture the table does not know: the figures, no occupancy.
  CHECK_FALSE(parse_ptxas_info(kLog, "sm_999")[1].occupancy_by_registers);
  CHECK(parse_ptxas_info("g++: no kernels here\n", "sm_90").empty());
  // 30 KiB: 228 KiB / 31 KiB = 7 blocks.
  const auto big = parse_ptxas_info("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                                    "ptxas info    : Used 32 registers, used 1 barriers, 30720 bytes smem\n", "sm_90");
  REQUIRE(big.size() == 1);
  CHECK(big[0].blocks_by_shared == 7);
}
