#include "judge/machine/machine.h"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "judge/isolation/process.h"

namespace hpcjudge {

namespace {
std::string read_key(const char* path, const std::string& key, char sep) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) != 0) continue;
    auto p = line.find(sep);
    if (p == std::string::npos) continue;
    std::string v = line.substr(p + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '"')) v.erase(0, 1);
    while (!v.empty() && (v.back() == '"' || v.back() == ' ')) v.pop_back();
    return v;
  }
  return "";
}

int usable_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}
}  // namespace

MachineInfo probe_machine(int threads) {
  MachineInfo m;
  m.cpu_model = read_key("/proc/cpuinfo", "model name", ':');
  m.cores = usable_cores();
  m.threads = threads > 0 ? threads : m.cores;
  m.os = read_key("/etc/os-release", "PRETTY_NAME", '=');
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  m.hostname = host;
  // Asked once per process: a judge run grades the reference solutions too.
  static const std::string compiler = [] {
    const RunResult r = run_command({"g++", "--version"}, 10);
    return r.output.substr(0, r.output.find('\n'));
  }();
  m.compiler = compiler;
  return m;
}

nlohmann::json MachineInfo::to_json() const {
  nlohmann::json j = {{"cpu_model", cpu_model}, {"cores", cores},  {"threads", threads},
                      {"os", os},               {"hostname", hostname}, {"compiler", compiler}};
  if (!gpu.is_null()) j["gpu"] = gpu;
  if (!peaks.is_null()) j["peaks"] = peaks;
  return j;
}

std::string MachineInfo::fingerprint() const {
  std::string f = cpu_model + " | " + std::to_string(cores) + " cores | " + std::to_string(threads) + " threads | " +
                  compiler;
  if (gpu.is_object())
    f += " | " + gpu.value("name", "") + " | driver " + gpu.value("driver", "") + " | CUDA " +
         gpu.value("cuda_runtime", "");
  return f;
}

}  // namespace hpcjudge
