#include "judge/machine/cpu_cache.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <system_error>

#include "sdk/uninitialized.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

std::string first_word(const fs::path& file) {
  std::ifstream f(file);
  std::string s;
  f >> s;
  return s;
}

// "32768K", "1M", "512": bytes, or 0.
size_t cache_size(const std::string& s) {
  if (s.empty()) return 0;
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return 0;
  const size_t n = std::stoull(s.substr(0, digits));
  const std::string unit = s.substr(digits);
  if (unit.empty()) return n;
  if (unit == "K") return n << 10;
  if (unit == "M") return n << 20;
  if (unit == "G") return n << 30;
  return 0;
}

// Sinks each part's sum, so that no load of the buffer can be left out.
std::atomic<uint64_t> g_sink{0};

}  // namespace

double cpu_quota(const fs::path& cgroup_root, const std::string& proc_self_cgroup) {
  double least = 0;
  const auto limit = [&](double quota, double period) {
    if (quota > 0 && period > 0 && (least == 0 || quota / period < least)) least = quota / period;
  };
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "0::/path" (v2), "3:cpu,cpuacct:/path" (v1); every folder from the root down may set a limit.
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const fs::path path = fs::path(line.substr(b + 1)).relative_path();
    const bool v2 = line.compare(0, a, "0") == 0 && controllers.empty();
    bool v1 = false;
    for (size_t i = 0; i <= controllers.size();) {
      const size_t j = std::min(controllers.find(',', i), controllers.size());
      v1 = v1 || controllers.substr(i, j - i) == "cpu";
      i = j + 1;
    }
    if (!v1 && !v2) continue;
    const fs::path base = v2 ? cgroup_root : cgroup_root / controllers;
    fs::path dir = base;
    for (auto part = path.begin();; ++part) {
      if (v2) {
        std::ifstream f(dir / "cpu.max");
        std::string quota;
        double period = 0;
        if (f >> quota >> period && quota != "max") limit(std::atof(quota.c_str()), period);
      } else {
        std::ifstream q(dir / "cpu.cfs_quota_us"), t(dir / "cpu.cfs_period_us");
        double quota = -1, period = 0;
        if (q >> quota && t >> period) limit(quota, period);
      }
      if (part == path.end()) break;
      dir /= *part;
    }
  }
  return least;
}

std::vector<CacheInstance> last_level_caches(const fs::path& sysfs_cpu, const std::vector<int>& cpus) {
  std::vector<CacheInstance> out;
  std::map<std::string, size_t> by_list;  // an instance's shared_cpu_list: its place in `out`
  for (const int cpu : cpus) {
    const fs::path dir = sysfs_cpu / ("cpu" + std::to_string(cpu)) / "cache";
    int best_level = -1;
    size_t best_bytes = 0;
    std::string best_list;
    for (int i = 0; i < 16; ++i) {
      const fs::path index = dir / ("index" + std::to_string(i));
      const std::string type = first_word(index / "type");
      if (type.empty()) continue;
      if (type == "Instruction") continue;
      const std::string level = first_word(index / "level");
      const std::string list = first_word(index / "shared_cpu_list");
      const size_t bytes = cache_size(first_word(index / "size"));
      if (level.empty() || list.empty() || bytes == 0) continue;
      const int l = std::atoi(level.c_str());
      if (l > best_level) best_level = l, best_bytes = bytes, best_list = std::to_string(l) + ":" + list;
    }
    if (best_level < 0) continue;
    const auto [it, fresh] = by_list.try_emplace(best_list, out.size());
    if (fresh) out.push_back({.bytes = best_bytes, .cpus = {}});
    out[it->second].cpus.push_back(cpu);
  }
  return out;
}

std::vector<int> allowed_cpus() {
  constexpr int kMaxCpus = 4096;
  cpu_set_t* set = CPU_ALLOC(kMaxCpus);
  const size_t size = CPU_ALLOC_SIZE(kMaxCpus);
  std::vector<int> cpus;
  if (set && sched_getaffinity(0, size, set) == 0)
    for (int c = 0; c < kMaxCpus; ++c)
      if (CPU_ISSET_S(c, size, set)) cpus.push_back(c);
  if (set) CPU_FREE(set);
  return cpus;
}

CacheFlusher::CacheFlusher(Reach reach) : reach_(reach) {}

CacheFlusher::~CacheFlusher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  go_.notify_all();
  for (std::thread& t : threads_) t.join();
  if (buf_) munmap(buf_, size_);
}

void CacheFlusher::start() {
  const std::vector<int> cpus = allowed_cpus();
  std::vector<CacheInstance> instances = last_level_caches("/sys/devices/system/cpu", cpus);
  // The buffer is twice the larger of the largest instance the kernel lists and the last level the C library
  // reads off the CPU, at least 64 MiB and at most 256 MiB. A virtual machine's figures may both be wrong: the
  // 2-core VM's kernel lists one L3 of 32 MiB, its C library says 320 MiB, and after a flush of 64 MiB (read
  // on both CPUs) a working set of 2-8 MiB was re-read at 42-46 GB/s a CPU, where after 1 GiB of other reads it
  // took 15-18 GB/s, as after 256 MiB (lab/flush_probe.cpp); another VM here claimed 508 MiB.
  size_t largest = 0;
  for (const CacheInstance& i : instances) largest = std::max(largest, i.bytes);
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0) largest = std::max(largest, static_cast<size_t>(l3));
#endif
  constexpr size_t kLine = 64;
  size_ = std::clamp<size_t>(2 * largest, size_t{64} << 20, size_t{256} << 20) / kLine * kLine;
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap the cache flush buffer");
  buf_ = static_cast<unsigned char*>(p);
  // Faulted in by the kernel in one call, not one write at a time (a first write of 256 MiB took 1.1 s so on
  // the 2-core VM): its own pages, which a read then brings into the caches.
  (void)uninit::populate(buf_, size_);
  if (reach_ == Reach::OneThread) return;
  // A CPU the kernel lists no cache for reads with the others of its kind (none listed: every CPU, sized by
  // what the C library says of the last level).
  std::vector<int> unlisted;
  for (const int c : cpus)
    if (std::none_of(instances.begin(), instances.end(), [c](const CacheInstance& i) {
          return std::find(i.cpus.begin(), i.cpus.end(), c) != i.cpus.end();
        }))
      unlisted.push_back(c);
  // No CPU known at all (no affinity mask read): one part, read wherever the kernel runs it.
  if (!unlisted.empty() || instances.empty())
    instances.push_back({.cpus = unlisted.empty() ? std::vector<int>{-1} : unlisted});
  // A CPU quota below the CPUs allowed (a container given 2 CPUs' time of 64): a thread per CPU would spend
  // the period's quota at once and wait out the rest of it, so as many threads as the quota has CPUs read the
  // buffer between them, wherever the kernel runs them.
  std::string own;
  {
    std::ifstream f("/proc/self/cgroup");
    own.assign(std::istreambuf_iterator<char>(f), {});
  }
  if (const double quota = cpu_quota("/sys/fs/cgroup", own); quota > 0 && std::ceil(quota) < static_cast<double>(cpus.size()))
    instances = {{.cpus = std::vector<int>(static_cast<size_t>(std::ceil(quota)), -1)}};
  // Each instance's CPUs read the whole buffer between them, a line-aligned part each.
  for (const CacheInstance& i : instances) {
    const size_t k = i.cpus.size(), lines = size_ / kLine;
    for (size_t j = 0; j < k; ++j)
      parts_.push_back({.cpu = i.cpus[j], .begin = lines * j / k * kLine, .end = lines * (j + 1) / k * kLine});
  }
  for (size_t k = 0; k < parts_.size(); ++k) threads_.emplace_back([this, k] { work(k); });
}

void CacheFlusher::read(const Part& part) {
  uint64_t sum = 0;
  for (size_t i = part.begin; i < part.end; i += 64) sum += buf_[i];
  g_sink.fetch_add(sum, std::memory_order_relaxed);
}

void CacheFlusher::work(size_t k) {
  const Part& part = parts_[k];
  if (part.cpu >= 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(part.cpu, &one);
    (void)pthread_setaffinity_np(pthread_self(), sizeof one, &one);  // where it fails, wherever it runs
  }
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      go_.wait(lock, [&] { return quit_ || round_ != seen; });
      if (quit_) return;
      seen = round_;
    }
    read(part);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--left_ == 0) done_.notify_one();
  }
}

void CacheFlusher::flush() {
  if (!buf_) start();
  if (reach_ == Reach::OneThread) {
    std::memset(buf_, ++written_, size_);
    read({.cpu = -1, .begin = 0, .end = size_});
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  ++round_;
  left_ = parts_.size();
  go_.notify_all();
  done_.wait(lock, [&] { return left_ == 0; });
}

}  // namespace hpcjudge
