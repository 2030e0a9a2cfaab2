// The cache flush before a timed call (judge/machine/cpu_cache.h): which CPUs share which last-level cache, read from
// a sysfs tree, and a flush that every allowed CPU takes part in.
#include <catch2/catch_test_macros.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "judge/machine/cpu_cache.h"
#include "judge/files.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

namespace {

void cache(const fs::path& root, int cpu, int index, int level, const std::string& type, const std::string& size,
           const std::string& shared) {
  const fs::path dir = root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(index));
  fs::create_directories(dir);
  std::ofstream(dir / "level") << level << "\n";
  std::ofstream(dir / "type") << type << "\n";
  std::ofstream(dir / "size") << size << "\n";
  std::ofstream(dir / "shared_cpu_list") << shared << "\n";
}

}  // namespace

TEST_CASE("cpu cache: the CPUs that share a last-level cache are grouped, with its size") {
  TempDir tmp;
  const fs::path root = tmp.path;
  // Two L3 instances of 32 MiB (CPUs 0-1 and 2-3), each CPU its own L1 and L2; CPU 4 lists an L2 alone.
  for (int c = 0; c < 4; ++c) {
    cache(root, c, 0, 1, "Data", "32K", std::to_string(c));
    cache(root, c, 1, 1, "Instruction", "32K", std::to_string(c));
    cache(root, c, 2, 2, "Unified", "1024K", std::to_string(c));
    cache(root, c, 3, 3, "Unified", "32768K", c < 2 ? "0-1" : "2-3");
  }
  cache(root, 4, 0, 2, "Unified", "2M", "4");
  const auto all = last_level_caches(root, {0, 1, 2, 3, 4, 5});
  REQUIRE(all.size() == 3);
  CHECK(all[0].bytes == size_t{32} << 20);
  CHECK(all[0].cpus == std::vector<int>{0, 1});
  CHECK(all[1].bytes == size_t{32} << 20);
  CHECK(all[1].cpus == std::vector<int>{2, 3});
  CHECK(all[2].bytes == size_t{2} << 20);  // its last level as listed
  CHECK(all[2].cpus == std::vector<int>{4});
  // Only the CPUs asked for; a CPU the tree does not list (5) is left out.
  const auto some = last_level_caches(root, {1, 3});
  REQUIRE(some.size() == 2);
  CHECK(some[0].cpus == std::vector<int>{1});
  CHECK(some[1].cpus == std::vector<int>{3});
  CHECK(last_level_caches(root / "none", {0, 1}).empty());
}

TEST_CASE("cpu cache: a flush of every CPU reads its buffer on each CPU this process may run on, round after round") {
  CacheFlusher f(CacheFlusher::Reach::EveryCpu);
  for (int i = 0; i < 3; ++i) f.flush();
  CHECK(f.cpus() >= allowed_cpus().size());
  CHECK(f.bytes() >= size_t{64} << 20);
  CHECK(f.bytes() <= size_t{256} << 20);
}

TEST_CASE("cpu cache: the judge's flush is one thread's, its buffer sized alike") {
  CacheFlusher f;
  for (int i = 0; i < 3; ++i) f.flush();
  CHECK(f.cpus() == 0);
  CHECK(f.bytes() >= size_t{64} << 20);
  CHECK(f.bytes() <= size_t{256} << 20);
}

TEST_CASE("cpu cache: a cgroup's CPU quota is the least limit on its path, v2 or v1, none where none is set") {
  TempDir tmp;
  const fs::path root = tmp.path;
  fs::create_directories(root / "user.slice/job");
  std::ofstream(root / "cpu.max") << "max 100000\n";
  std::ofstream(root / "user.slice/cpu.max") << "250000 100000\n";
  std::ofstream(root / "user.slice/job/cpu.max") << "max 100000\n";
  CHECK(cpu_quota(root, "0::/user.slice/job\n") == 2.5);
  CHECK(cpu_quota(root, "0::/\n") == 0);
  fs::create_directories(root / "cpu,cpuacct/docker/abc");
  std::ofstream(root / "cpu,cpuacct/cpu.cfs_quota_us") << "-1\n";
  std::ofstream(root / "cpu,cpuacct/cpu.cfs_period_us") << "100000\n";
  std::ofstream(root / "cpu,cpuacct/docker/abc/cpu.cfs_quota_us") << "200000\n";
  std::ofstream(root / "cpu,cpuacct/docker/abc/cpu.cfs_period_us") << "100000\n";
  CHECK(cpu_quota(root, "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n") == 2.0);
  CHECK(cpu_quota(root, "3:cpu,cpuacct:/\n") == 0);
  CHECK(cpu_quota(root / "none", "0::/x\n") == 0);
  CHECK(cpu_quota(root, "garbage\n") == 0);
}
