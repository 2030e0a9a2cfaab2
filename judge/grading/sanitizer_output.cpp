#include "judge/grading/sanitizer_output.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>

#include "sdk/text.h"

namespace hpcjudge {

namespace {

constexpr std::string_view kMark = "=========";  // the tool's lines begin with it

bool names_an_error(const std::string& body) {
  if (body.find("SUMMARY") != std::string::npos) return false;
  for (const char* w : {"Error", "Race", "Invalid", "hazard", "Leak", "leak"})
    if (body.find(w) != std::string::npos) return true;
  return false;
}

struct Frame {
  std::string function;  // "" for an unnamed frame
  std::string module;    // the file it is in, without its folder
};

// "/usr/lib/libcudart.so.13" -> "libcudart.so.13".
std::string file_name(const std::string& path) {
  const std::string t = trim(path);
  const size_t slash = t.rfind('/');
  return slash == std::string::npos ? t : t.substr(slash + 1);
}

// "Host Frame: cudaHostAlloc [0x4d979] in /usr/lib/libcudart.so.13" -> {"cudaHostAlloc", "libcudart.so.13"};
// none where the line is not a frame. The file may instead stand on the next line alone ("in /usr/lib/...", as
// CUDA 12's tool printed it): the module is then "" here.
std::optional<Frame> host_frame(const std::string& body) {
  const size_t at = body.find("Host Frame:");
  if (at == std::string::npos) return std::nullopt;
  const std::string f = trim(body.substr(at + 11));
  Frame fr;
  const size_t cut = f.find_first_of(" [");
  fr.function = f.substr(0, cut == std::string::npos ? f.size() : cut);
  if (const size_t in = f.rfind(" in "); in != std::string::npos) fr.module = file_name(f.substr(in + 4));
  return fr;
}

// The CUDA runtime's or driver's own library (libcudart.so.13, libcuda.so.1).
bool cuda_library(const std::string& module) {
  return module.rfind("libcudart.", 0) == 0 || module.rfind("libcuda.", 0) == 0;
}

// A CUDA call that allocates memory, by its name: the runtime's and the driver's (cudaMalloc, cudaMallocAsync,
// cudaMallocHost, cudaHostAlloc, cuMemAlloc_v2, cuMemHostAlloc, ...).
bool allocates(const std::string& fn) {
  return fn.rfind("cudaMalloc", 0) == 0 || fn.rfind("cudaHostAlloc", 0) == 0 || fn.rfind("cuMemAlloc", 0) == 0 ||
         fn.rfind("cuMemHostAlloc", 0) == 0;
}

}  // namespace

bool SanitizerReport::host_memory() const {
  if (!leak || !allocator_in_cuda) return false;
  for (const char* host : {"cudaHostAlloc", "cudaMallocHost", "cuMemHostAlloc", "cuMemAllocHost", "cuMemAllocHost_v2"})
    if (allocator == host) return true;
  return false;
}

std::string SanitizerReport::describe() const {
  if (leak) return headline + (allocator.empty() ? " (never freed)" : " (" + allocator + ", never freed)");
  return where.empty() ? headline : headline + " | " + where;
}

SanitizerOutput parse_sanitizer_output(const std::string& out) {
  SanitizerOutput r;
  std::istringstream in(out);
  std::string line;
  SanitizerReport* open = nullptr;  // the report whose following lines are being read
  std::optional<Frame> frame;        // an open leak's last frame, its file not yet read
  // The frames run from the innermost out: a CUDA library's allocation call replaces any before it, one of
  // another file's names the allocator only where no CUDA library's did.
  const auto weigh = [&] {
    if (!frame || !open || !allocates(frame->function)) return frame.reset();
    if (cuda_library(frame->module)) {
      open->allocator = frame->function;
      open->allocator_in_cuda = true;
    } else if (open->allocator.empty()) {
      open->allocator = frame->function;
    }
    frame.reset();
  };
  while (std::getline(in, line)) {
    if (line.rfind(kMark, 0) != 0) continue;
    const std::string body = line.substr(kMark.size());
    const std::string text = trim(body);
    if (frame && text.rfind("in ", 0) != 0) weigh();  // a frame waits only for a file on the next line
    if (text.rfind("ERROR SUMMARY:", 0) == 0) {
      r.errors = std::strtol(text.c_str() + 14, nullptr, 10);
      open = nullptr;
      continue;
    }
    // A report's first line stands one space after the marker; the lines that follow it (where, a backtrace's
    // frames, whose names may hold "Error") are indented further.
    const bool headline = body.size() > 1 && body[0] == ' ' && body[1] != ' ';
    if (headline && names_an_error(text)) {
      SanitizerReport rep;
      rep.headline = text;
      rep.leak = text.rfind("Leaked ", 0) == 0;
      r.reports.push_back(rep);
      open = &r.reports.back();
      continue;
    }
    if (!open) continue;
    if (text.empty()) {  // a report ends with a bare marker line
      open = nullptr;
      continue;
    }
    if (open->where.empty()) open->where = text;  // the line after the headline
    if (!open->leak) continue;
    if (frame) {  // the file of the frame before, on a line of its own
      frame->module = file_name(text.substr(3));
      weigh();
    } else if ((frame = host_frame(body)) && !frame->module.empty()) {
      weigh();
    }
  }
  weigh();
  return r;
}

long SanitizerOutput::excused() const {
  return std::count_if(reports.begin(), reports.end(), [](const SanitizerReport& r) { return r.host_memory(); });
}

std::string SanitizerOutput::failure() const {
  for (const SanitizerReport& rep : reports)
    if (!rep.host_memory()) return rep.describe();
  const long ok = excused();
  if (errors && *errors > ok)
    return "compute-sanitizer counted " + std::to_string(*errors) + " error" + (*errors == 1 ? "" : "s") +
           (ok ? " (" + std::to_string(ok) + " of them leaks of page-locked host memory, not an error here)" : "");
  return "";
}

bool SanitizerOutput::only_excused_errors() const { return errors && *errors > 0 && *errors == excused(); }

}  // namespace hpcjudge
