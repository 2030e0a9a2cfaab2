// compute-sanitizer's output read back (judge/grading/sanitizer_output.h). The leak reports' form is memcheck's
// --leak-check full as the H100's CUDA 13 tool printed it for a program that left one allocation of each kind.
#include <catch2/catch_test_macros.hpp>

#include "judge/grading/sanitizer_output.h"

using namespace hpcjudge;

namespace {

std::string leak(const std::string& bytes_at, const std::string& frames) {
  return "========= Leaked " + bytes_at + "\n=========     Saved host backtrace up to driver entry point at allocation time\n" +
         frames + "========= \n";
}
std::string frame(const std::string& fn, const std::string& in) {
  return "=========         Host Frame: " + fn + (fn.empty() ? "" : " ") + "[0x4d979] in " + in + "\n";
}
const std::string kStart = "========= COMPUTE-SANITIZER\n";
std::string summary(int errors) {
  return "========= LEAK SUMMARY: 4 bytes leaked in 1 allocations\n========= ERROR SUMMARY: " + std::to_string(errors) +
         (errors == 1 ? " error\n" : " errors\n");
}

}  // namespace

TEST_CASE("a leak of page-locked host memory alone is no failure; a device-memory leak is") {
  const std::string host = leak("4 bytes at 0x7f215c800000", frame("cudaHostAlloc", "libcudart.so.13") +
                                                                 frame("count_on_host", "solution.so"));
  SanitizerOutput o = parse_sanitizer_output(kStart + host + "test output of the submission\n" + summary(1));
  REQUIRE(o.reports.size() == 1);
  CHECK(o.reports[0].leak);
  CHECK(o.reports[0].allocator == "cudaHostAlloc");
  CHECK(o.reports[0].host_memory());
  CHECK(o.failure().empty());
  CHECK(o.only_excused_errors());

  const std::string device = leak("4 bytes at 0x7fec2c800000", frame("cudaMalloc", "libcudart.so.13") +
                                                                   frame("solve", "solution.so"));
  o = parse_sanitizer_output(kStart + host + device + summary(2));
  REQUIRE(o.reports.size() == 2);
  CHECK_FALSE(o.reports[1].host_memory());
  CHECK(o.failure() == "Leaked 4 bytes at 0x7fec2c800000 (cudaMalloc, never freed)");
  CHECK_FALSE(o.only_excused_errors());

  for (const char* kind : {"cudaMallocManaged", "cudaMallocAsync", "cuMemAlloc_v2"}) {
    o = parse_sanitizer_output(kStart + leak("128 bytes at 0x7f381a000000", frame(kind, "libcudart.so.13")) + summary(1));
    CHECK(o.failure() == "Leaked 128 bytes at 0x7f381a000000 (" + std::string(kind) + ", never freed)");
  }
}

TEST_CASE("a leak's allocator is the outermost allocation call in a CUDA library, else the leak counts") {
  // The shared runtime's own frames may come first, unnamed or named otherwise.
  SanitizerOutput o = parse_sanitizer_output(
      kStart + leak("64 bytes at 0x7f02de800000", frame("", "libcudart.so.13") + frame("cudaMallocHost", "libcudart.so.13") +
                                                      frame("solve", "solution.so")) +
      summary(1));
  CHECK(o.reports.at(0).allocator == "cudaMallocHost");
  CHECK(o.failure().empty());

  // A judged submission's pinned word: the driver's frame inside the runtime's call named after another
  // allocation call; the runtime's own call, outermost, is the allocator.
  const std::string pinned = frame("cuMemAlloc_v2", "/usr/lib/x86_64-linux-gnu/libcuda.so.1") +
                             frame("", "libcudart.so.13") + frame("cudaHostAlloc", "/opt/cuda/lib64/libcudart.so.13") +
                             frame("solve", "solution.so");
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f33dc800000", pinned) + summary(1));
  CHECK(o.reports.at(0).allocator == "cudaHostAlloc");
  CHECK(o.failure().empty());
  CHECK(o.only_excused_errors());
  // Device memory the same way: named by the runtime's call.
  o = parse_sanitizer_output(kStart +
                             leak("4 bytes at 0x7f0", frame("cuMemAlloc_v2", "libcuda.so.1") + frame("cudaMalloc", "libcudart.so.13") +
                                                          frame("solve", "solution.so")) +
                             summary(1));
  CHECK(o.failure() == "Leaked 4 bytes at 0x7f0 (cudaMalloc, never freed)");

  // A function of the submission's own named like a host allocator, around device memory: no CUDA library's
  // call says host memory.
  o = parse_sanitizer_output(kStart +
                             leak("4 bytes at 0x7f0", frame("cuMemAlloc_v2", "libcuda.so.1") + frame("cudaMalloc", "libcudart.so.13") +
                                                          frame("cudaHostAlloc", "solution.so") + frame("solve", "solution.so")) +
                             summary(1));
  CHECK(o.reports.at(0).allocator == "cudaMalloc");
  CHECK_FALSE(o.failure().empty());
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f0", frame("cudaHostAlloc", "solution.so")) + summary(1));
  CHECK(o.reports.at(0).allocator == "cudaHostAlloc");
  CHECK_FALSE(o.reports.at(0).host_memory());
  CHECK(o.failure() == "Leaked 4 bytes at 0x7f0 (cudaHostAlloc, never freed)");
  // Each frame's file on a line of its own, as CUDA 12's tool printed it.
  const std::string two_lines =
      "=========     Host Frame: [0x2da4eb]\n=========                in /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
      "=========     Host Frame:cudaHostAlloc [0x86d38]\n=========                in /opt/cuda/lib64/libcudart.so.12\n"
      "=========     Host Frame:solve [0x1200]\n=========                in /tmp/judge/solution.so\n";
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f566f200000", two_lines) + summary(1));
  CHECK(o.reports.at(0).allocator == "cudaHostAlloc");
  CHECK(o.reports.at(0).allocator_in_cuda);
  CHECK(o.failure().empty());
  const std::string two_lines_device =
      "=========     Host Frame:cudaMalloc [0x86d38]\n=========                in /opt/cuda/lib64/libcudart.so.12\n"
      "=========     Host Frame:cudaHostAlloc [0x1200]\n=========                in /tmp/judge/solution.so\n";
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f0", two_lines_device) + summary(1));
  CHECK(o.failure() == "Leaked 4 bytes at 0x7f0 (cudaMalloc, never freed)");

  // Named like one but not one (a prefix): not excused.
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f0", frame("cudaHostAllocLater", "libcudart.so.13")) + summary(1));
  CHECK_FALSE(o.failure().empty());

  // No frame names an allocation call (symbols stripped): not excused.
  o = parse_sanitizer_output(kStart + leak("4 bytes at 0x7f0", frame("", "libcuda.so.1") + frame("solve", "solution.so")) +
                             summary(1));
  CHECK(o.reports.at(0).allocator.empty());
  CHECK(o.failure() == "Leaked 4 bytes at 0x7f0 (never freed)");
  CHECK_FALSE(o.only_excused_errors());
}

TEST_CASE("access errors and races are reported with the line that says where; frames are not reports") {
  const std::string invalid =
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at add(const float *, float *)+0x70 in vector_add.cu:12\n"
      "=========     by thread (31,0,0) in block (2,0,0)\n"
      "=========         Host Frame: cudaGetLastError [0x1234] in libcudart.so.13\n"
      "========= \n";
  SanitizerOutput o = parse_sanitizer_output(kStart + invalid + summary(1));
  REQUIRE(o.reports.size() == 1);
  CHECK(o.failure() == "Invalid __global__ read of size 4 bytes | at add(const float *, float *)+0x70 in vector_add.cu:12");

  o = parse_sanitizer_output(kStart +
                             "========= Error: Race reported between Write access at scan+0x90 in scan.cu:40\n"
                             "=========     and Read access at scan+0xb0 in scan.cu:41 [128 hazards]\n" +
                             summary(1));
  CHECK(o.failure() ==
        "Error: Race reported between Write access at scan+0x90 in scan.cu:40 | and Read access at scan+0xb0 in scan.cu:41 "
        "[128 hazards]");
}

TEST_CASE("errors the summary counts beyond the reports shown fail; the tool's summary is the last one") {
  const std::string host = leak("4 bytes at 0x7f215c800000", frame("cudaHostAlloc", "libcudart.so.13"));
  // Three errors counted, one report shown (the print limit): the other two are unknown, so they count.
  SanitizerOutput o = parse_sanitizer_output(kStart + host + summary(3));
  CHECK(o.failure() == "compute-sanitizer counted 3 errors (1 of them leaks of page-locked host memory, not an error here)");
  CHECK_FALSE(o.only_excused_errors());

  // A summary the submission printed itself comes before the tool's own, which is read.
  o = parse_sanitizer_output(kStart + summary(0) + host + summary(2));
  CHECK(o.errors == 2);
  CHECK_FALSE(o.failure().empty());

  // No summary at all (the output cut short): nothing excuses the tool's error status.
  o = parse_sanitizer_output(kStart + host);
  CHECK(o.failure().empty());
  CHECK_FALSE(o.only_excused_errors());

  o = parse_sanitizer_output(kStart + summary(0));
  CHECK(o.failure().empty());
  CHECK_FALSE(o.only_excused_errors());
}

TEST_CASE("the H200's own report: the reference's pinned word excused, the runner's touch() buffer a device leak") {
  // Verbatim (but for the long template frame, shortened) from rle-compress's fast reference judged with --sanitize
  // on the H200, before the runner freed touch()'s buffer as it exits (runner/device.cpp).
  const std::string pinned =
      "========= Leaked 4 bytes at 0x7f1669800000\n"
      "=========     Saved host backtrace up to driver entry point at allocation time\n"
      "=========         Host Frame: cuMemHostAlloc [0x32bd9f] in libcuda.so.1\n"
      "=========         Host Frame:  [0x41c5d] in libcudart.so.13\n"
      "=========         Host Frame:  [0x14815] in libcudart.so.13\n"
      "=========         Host Frame: cudaHostAlloc [0x51cd9] in libcudart.so.13\n"
      "=========         Host Frame: (anonymous namespace)::count_on_host(unsigned int const*) [0x1bec] in "
      "submission-e4e31c7cd693f5f2.so\n"
      "=========         Host Frame: hpcjudge::ProblemOf<...>::invoke(void*) const [0xf132a] in hpcjudge-runner\n"
      "=========         Host Frame: (anonymous namespace)::Runner::serve() [clone .constprop.0] [0x96b0c] in "
      "hpcjudge-runner\n"
      "=========         Host Frame: main [0x8e6ff] in hpcjudge-runner\n"
      "========= \n";
  const std::string touch =
      "========= Leaked 4 bytes at 0x7f1690800000\n"
      "=========     Saved host backtrace up to driver entry point at allocation time\n"
      "=========         Host Frame: cuMemAlloc_v2 [0x32b91f] in libcuda.so.1\n"
      "=========         Host Frame:  [0x41b5d] in libcudart.so.13\n"
      "=========         Host Frame:  [0x146f2] in libcudart.so.13\n"
      "=========         Host Frame: cudaMalloc [0x50c56] in libcudart.so.13\n"
      "=========         Host Frame: cudaMalloc [0xc0c04] in hpcjudge-runner\n"
      "=========         Host Frame: hpcjudge::(anonymous namespace)::DeviceMemory::touch() [0xb816d] in "
      "hpcjudge-runner\n"
      "=========         Host Frame: (anonymous namespace)::Runner::serve() [clone .constprop.0] [0x96927] in "
      "hpcjudge-runner\n"
      "=========         Host Frame: main [0x8e6ff] in hpcjudge-runner\n"
      "========= \n";
  const std::string tail = "========= LEAK SUMMARY: 8 bytes leaked in 2 allocations\n========= ERROR SUMMARY: 2 errors\n";
  SanitizerOutput o = parse_sanitizer_output(kStart + pinned + touch + tail);
  REQUIRE(o.reports.size() == 2);
  CHECK(o.reports[0].allocator == "cudaHostAlloc");
  CHECK(o.reports[0].host_memory());
  CHECK(o.reports[1].allocator == "cudaMalloc");
  CHECK(o.failure() == "Leaked 4 bytes at 0x7f1690800000 (cudaMalloc, never freed)");
  // With the runner's buffer freed, the pinned word alone is left, and excused.
  o = parse_sanitizer_output(kStart + pinned +
                             "========= LEAK SUMMARY: 4 bytes leaked in 1 allocations\n========= ERROR SUMMARY: 1 error\n");
  CHECK(o.failure().empty());
  CHECK(o.only_excused_errors());
}
