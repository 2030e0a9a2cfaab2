#include "judge/machine/calibration.h"

#include <fstream>

#include "judge/isolation/process.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace fs = std::filesystem;

std::optional<Peaks> machine_peaks(const Paths& paths, const MachineInfo& m, Kind kind, int device,
                                   bool remeasure) {
  static std::optional<Peaks> memo[2];
  std::optional<Peaks>& mine = memo[kind == Kind::GPU];
  if (mine && !remeasure) return mine;
  const std::string key = m.fingerprint();
  const fs::path file = paths.machine_cache_file(kind == Kind::GPU ? "peaks-gpu" : "peaks-cpu", key);
  nlohmann::json j = tolerant::read_file(file, 1 << 20);
  // A cache file edited or cut short (not an object, or without an object of peaks) is no cache: the peaks are
  // measured again. Read as it was, value() below would throw on it and end the judge.
  const bool cached = !j.is_discarded() && j.is_object() && j.value("version", 0) == kPeaksCacheVersion &&
                      j.value("fingerprint", "") == key && j.contains("peaks") && j["peaks"].is_object();
  if (!cached || remeasure) {
    std::vector<std::string> argv = {paths.runner.string(), "--calibrate", "--threads", std::to_string(m.threads)};
    if (kind == Kind::GPU) argv.insert(argv.end(), {"--gpu", "--device", std::to_string(device)});
    const RunResult r = run_command(argv, 300);
    const auto out = parse_untrusted_json(r.output, 1 << 20);
    const char* side = kind == Kind::GPU ? "gpu" : "cpu";
    const bool measured = !r.timed_out && !out.is_discarded() && out.contains(side) && !out[side].contains("error");
    if (!measured && !cached) return std::nullopt;
    if (measured) {
      nlohmann::json peaks = out[side];
      if (cached)  // the highest of each figure: interference only ever slows a measurement down
        for (auto& [name, value] : peaks.items())
          if (value.is_number() && j["peaks"].value(name, 0.0) > value.get<double>()) value = j["peaks"][name];
      j = {{"version", kPeaksCacheVersion}, {"fingerprint", key}, {"peaks", peaks}};
      write_cache_file(file, j.dump(2) + "\n");
    }
  }
  Peaks p;
  p.measured = j["peaks"];
  p.copy_gbps = p.measured.value("copy_gbps", 0.0);
  p.fma_gflops = p.measured.value("fma_gflops", 0.0);
  if (p.copy_gbps <= 0 || p.fma_gflops <= 0) return std::nullopt;
  return mine = p;
}

double percent_of_peak(double bytes, double flops, double seconds, const Peaks& p) {
  if (seconds <= 0) return 0;
  if (flops > 0) return 100 * flops / seconds / 1e9 / p.fma_gflops;
  return 100 * bytes / seconds / 1e9 / p.copy_gbps;
}

double physical_floor_s(double bytes, double flops, const Peaks& p) {
  return std::max(bytes / (kBytesSlack * p.copy_gbps * 1e9), flops / (kFlopsSlack * p.fma_gflops * 1e9));
}

}  // namespace hpcjudge
