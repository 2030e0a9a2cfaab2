// compute-sanitizer's output read back: its reports (the "=========" lines that name an error, a race, a hazard or
// a leak, with the line that says where) and its error summary, and which of them make a run RE.
//
// One kind of report does not: a leak of page-locked host memory (cudaHostAlloc, cudaMallocHost). memcheck's leak
// check lists it beside device memory ("Leaked 4 bytes at 0x7f21...", its saved backtrace naming the allocator),
// but it is the host's memory, and a problem statement may ask for it (rle-compress and rle-decompress return
// their count through a word of mapped, pinned host memory that solve() allocates once). A device-memory leak,
// or one whose allocator the backtrace does not name, stays RE.
//
// The allocator is the outermost allocation call of the backtrace in a CUDA library (libcudart, libcuda): the
// call the submission's code made. The frames inside it are named otherwise: on the H200 a
// cudaHostAlloc leak's backtrace named cuMemHostAlloc in libcuda.so.1 first, then cudaHostAlloc in
// libcudart.so.13. A function of the submission's own named like an allocator is not in a CUDA library, so it
// excuses nothing.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace hpcjudge {

struct SanitizerReport {
  std::string headline;   // "Invalid __global__ read of size 4 bytes", "Leaked 4 bytes at 0x7f215c800000"
  std::string where;      // the line after it, trimmed ("at add+0x70 in vector_add.cu:12"), or ""
  bool leak = false;      // a leak check's report
  std::string allocator;  // a leak's: the outermost allocation call its backtrace names ("cudaMalloc"), or ""
  bool allocator_in_cuda = false;  // that call's frame is in a CUDA library, not the submission's
  bool host_memory() const;  // a leak of page-locked host memory (see above)
  std::string describe() const;  // one line: "Leaked 4 bytes at 0x... (cudaMalloc, never freed)"
};

struct SanitizerOutput {
  std::vector<SanitizerReport> reports;
  std::optional<long> errors;  // the last "ERROR SUMMARY: N errors" (the tool's own, printed after the process)
  // The cause of an RE: the first report that is not a leak of host memory, or, where the summary counts more
  // errors than the reports excused (the print limit hid the rest), that count; "" when nothing failed.
  std::string failure() const;
  // Whether the tool's error status (--error-exitcode) is the excused leaks' alone: the summary counts errors, as
  // many as those reports. A status of error without it is RE, however the output reads.
  bool only_excused_errors() const;
  long excused() const;  // the reports that are leaks of host memory
};

SanitizerOutput parse_sanitizer_output(const std::string& out);

}  // namespace hpcjudge
