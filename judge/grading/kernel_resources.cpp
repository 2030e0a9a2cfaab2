#include "judge/grading/kernel_resources.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>

namespace hpcjudge {

namespace {

// What limits residency on an SM, per compute capability (the CUDA C++ Programming
// Guide's table of technical specifications).
struct SmLimits {
  int major_minor;
  int max_warps;
  int max_blocks;
  int registers;     // 32-bit registers per SM
  long shared_bytes; // shared memory per SM available to blocks
  long reserved;     // shared memory the system reserves per block (1 KiB from sm_80 on)
};
constexpr SmLimits kLimits[] = {
    {70, 64, 32, 65536, 96 * 1024, 0},       {75, 32, 16, 65536, 64 * 1024, 0},
    {80, 64, 32, 65536, 164 * 1024, 1024},   {86, 48, 16, 65536, 100 * 1024, 1024},
    {87, 48, 16, 65536, 164 * 1024, 1024},   {89, 48, 24, 65536, 100 * 1024, 1024},
    {90, 64, 32, 65536, 228 * 1024, 1024},   {100, 64, 32, 65536, 228 * 1024, 1024},
    {103, 64, 32, 65536, 228 * 1024, 1024},  {120, 48, 32, 65536, 100 * 1024, 1024},
};

std::optional<SmLimits> limits_of(const std::string& arch) {
  if (arch.rfind("sm_", 0) != 0) return std::nullopt;
  const int cc = std::atoi(arch.c_str() + 3);
  for (const SmLimits& l : kLimits)
    if (l.major_minor == cc) return l;
  return std::nullopt;
}

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? d.get() : name;
}

long number_before(const std::string& line, const std::string& unit) {
  std::smatch m;
  return std::regex_search(line, m, std::regex("(\\d+) " + unit)) ? std::stol(m[1]) : 0;
}

}  // namespace

std::vector<KernelResources> parse_ptxas_info(const std::string& log, const std::string& arch) {
  std::vector<KernelResources> kernels;
  const std::optional<SmLimits> lim = limits_of(arch);
  std::istringstream in(log);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, std::regex("Compiling entry function '([^']+)'"))) {
      kernels.push_back({.name = demangle(m[1]), .mangled = m[1]});
      continue;
    }
    if (kernels.empty()) continue;
    KernelResources& k = kernels.back();
    if (line.find("bytes stack frame") != std::string::npos) {
      k.stack_bytes = number_before(line, "bytes stack frame");
      k.spill_store_bytes = number_before(line, "bytes spill stores");
      k.spill_load_bytes = number_before(line, "bytes spill loads");
    } else if (std::regex_search(line, m, std::regex("Used (\\d+) registers"))) {
      k.registers = std::stoi(m[1]);
      k.barriers = static_cast<int>(number_before(line, "barriers"));
      k.shared_bytes = number_before(line, "bytes smem");
      if (lim) {
        // Registers are allocated per warp in units of 256.
        const int per_warp = std::max(1, (k.registers * 32 + 255) / 256 * 256);
        const int warps = std::min(lim->max_warps, lim->registers / per_warp);
        k.occupancy_by_registers = static_cast<double>(warps) / lim->max_warps;
        if (k.shared_bytes > 0)
          k.blocks_by_shared = static_cast<int>(
              std::min<long>(lim->max_blocks, lim->shared_bytes / (k.shared_bytes + lim->reserved)));
      }
    }
  }
  return kernels;
}

nlohmann::json KernelResources::to_json() const {
  nlohmann::json j = {{"name", name},
                      {"mangled", mangled},
                      {"registers", registers},
                      {"barriers", barriers},
                      {"stack_bytes", stack_bytes},
                      {"spill_store_bytes", spill_store_bytes},
                      {"spill_load_bytes", spill_load_bytes},
                      {"shared_bytes", shared_bytes}};
  j["occupancy_by_registers"] = occupancy_by_registers ? nlohmann::json(*occupancy_by_registers) : nlohmann::json();
  j["blocks_by_shared"] = blocks_by_shared ? nlohmann::json(*blocks_by_shared) : nlohmann::json();
  return j;
}

std::string KernelResources::describe() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d registers, %ld B static shared, %ld B stack", registers, shared_bytes,
                stack_bytes);
  std::string s = name + ": " + buf;
  if (spill_store_bytes || spill_load_bytes)
    s += ", SPILLS " + std::to_string(spill_store_bytes) + " B stored / " + std::to_string(spill_load_bytes) +
         " B loaded (local memory: fewer registers per thread, or smaller per-thread arrays)";
  else
    s += ", no spills";
  if (occupancy_by_registers) {
    std::snprintf(buf, sizeof buf, "; the registers allow %.0f%% occupancy", 100 * *occupancy_by_registers);
    s += buf;
  }
  if (blocks_by_shared) s += ", the shared memory " + std::to_string(*blocks_by_shared) + " blocks per SM";
  return s;
}

}  // namespace hpcjudge
