// The machine's peaks: cached per fingerprint, measured again by make bench,
// and never lowered by a measurement taken while the machine was busy.
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <fstream>

#include "judge/machine/calibration.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

TEST_CASE("calibration: a new measurement keeps the highest of each peak") {
  const fs::path dir = fs::temp_directory_path() / ("hpcjudge-calibration-" + std::to_string(getpid()));
  fs::create_directories(dir);
  // A stand-in for hpcjudge-runner --calibrate: a busy machine's figures, its copy bandwidth too low.
  const fs::path runner = dir / "runner";
  std::ofstream(runner) << "#!/bin/sh\necho '{\"cpu\": {\"copy_gbps\": 10, \"fma_gflops\": 500, \"threads\": 1}}'\n";
  fs::permissions(runner, fs::perms::owner_all);
  Paths paths;
  paths.runner = runner;
  paths.cache = dir / "cache";
  MachineInfo m;
  m.cpu_model = "test CPU";
  m.cores = m.threads = 1;
  m.compiler = "test compiler";
  write_cache_file(paths.machine_cache_file("peaks-cpu", m.fingerprint()),
                   R"({"version": )" + std::to_string(kPeaksCacheVersion) + R"(, "fingerprint": ")" + m.fingerprint() +
                       R"(", "peaks": {"copy_gbps": 20, "fma_gflops": 100, "threads": 1}})");

  const auto cached = machine_peaks(paths, m, Kind::CPU, 0);
  REQUIRE(cached);
  CHECK(cached->copy_gbps == 20);  // the cache as it is: nothing measured
  CHECK(cached->fma_gflops == 100);

  const auto again = machine_peaks(paths, m, Kind::CPU, 0, true);
  REQUIRE(again);
  CHECK(again->copy_gbps == 20);   // 10 measured: the cache's 20 stays
  CHECK(again->fma_gflops == 500); // 500 measured: higher, taken

  std::ifstream in(paths.machine_cache_file("peaks-cpu", m.fingerprint()));
  const auto j = nlohmann::json::parse(in);
  CHECK(j["peaks"]["copy_gbps"] == 20);
  CHECK(j["peaks"]["fma_gflops"] == 500);
  fs::remove_all(dir);
}
