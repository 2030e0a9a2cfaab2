#include "judge/isolation/device_lock.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>

#ifdef HPCJUDGE_HAVE_CUDA
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#endif

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

enum class Files { None, Device, Hidden };  // what a process holds open: no NVIDIA device file, one, or not known

Files files_of(pid_t pid) {
  std::error_code ec;
  fs::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec);
  // One the judge may not look into: a process that made itself not dumpable, a user's the judge may not trace.
  if (ec) return ec == std::errc::permission_denied ? Files::Hidden : Files::None;
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code link;
    const fs::path target = fs::read_symlink(it->path(), link);
    if (!link && std::string_view(target.native()).starts_with("/dev/nvidia")) return Files::Device;
  }
  return Files::None;
}

}  // namespace

bool DeviceLock::uses_gpu(pid_t pid) { return files_of(pid) != Files::None; }

#ifndef HPCJUDGE_HAVE_CUDA
std::string DeviceLock::unavailable() { return "the judge was built without the CUDA toolkit"; }
DeviceLock::Result DeviceLock::lock(const std::vector<pid_t>& pids, std::chrono::milliseconds, std::string* why) {
  for (pid_t pid : pids)
    if (looked_at_.insert(pid).second && uses_gpu(pid)) {
      *why = unavailable();
      return Result::Failed;
    }
  return Result::Locked;
}
bool DeviceLock::unlock(std::string*) {
  looked_at_.clear();
  return true;
}
#else

namespace {

struct Driver {
  PFN_cuCheckpointProcessLock_v12080 lock = nullptr;
  PFN_cuCheckpointProcessUnlock_v12080 unlock = nullptr;
  PFN_cuCheckpointProcessGetState_v12080 state = nullptr;
  PFN_cuGetErrorName_v6000 error_name = nullptr;
  std::string missing;  // why there is none, or ""
};

const Driver& driver() {
  static const Driver d = [] {
    Driver r;
    const auto find = [&](const char* name, void** fn, int version) {
      cudaDriverEntryPointQueryResult q{};
      if (cudaGetDriverEntryPointByVersion(name, fn, version, cudaEnableDefault, &q) != cudaSuccess ||
          q != cudaDriverEntryPointSuccess || !*fn) {
        cudaGetLastError();
        if (r.missing.empty()) r.missing = std::string("this machine's CUDA driver has no ") + name;
      }
    };
    find("cuCheckpointProcessLock", reinterpret_cast<void**>(&r.lock), 12080);
    find("cuCheckpointProcessUnlock", reinterpret_cast<void**>(&r.unlock), 12080);
    find("cuCheckpointProcessGetState", reinterpret_cast<void**>(&r.state), 12080);
    find("cuGetErrorName", reinterpret_cast<void**>(&r.error_name), 6000);
    return r;
  }();
  return d;
}

std::string name_of(CUresult r) {
  const char* name = nullptr;
  if (driver().error_name) driver().error_name(r, &name);
  return name ? name : "CUresult " + std::to_string(static_cast<int>(r));
}

bool ended(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// A driver call bounded in time: the lock's own timeout bounds its wait for a process's work, but neither call
// returns while the process cannot run (a member that stopped itself between the judge's resume and the call);
// past `limit`, a thread of its own kills that process, and the call returns once the driver sees it gone.
class Watchdog {
 public:
  // f() (a driver call on `pid`), with `pid` killed should it not return within `limit`; `killed` says whether.
  // Calls on several threads (a batch's grades, one per GPU) are watched each on its own: none waits for another.
  template <class F>
  static CUresult run(pid_t pid, std::chrono::milliseconds limit, bool* killed, F f) {
    static Watchdog* w = new Watchdog;  // never destroyed: its thread may outlive main's return
    const auto watched = std::make_shared<Watched>(Watched{pid, std::chrono::steady_clock::now() + limit});
    {
      std::lock_guard<std::mutex> g(w->mutex_);
      w->watched_.push_back(watched);
    }
    const CUresult r = f();
    std::lock_guard<std::mutex> g(w->mutex_);
    std::erase(w->watched_, watched);
    *killed = watched->fired;
    return r;
  }

 private:
  struct Watched {
    pid_t pid;
    std::chrono::steady_clock::time_point until;
    bool fired = false;
  };
  Watchdog() {
    std::thread([this] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::lock_guard<std::mutex> g(mutex_);
        const auto now = std::chrono::steady_clock::now();
        for (const auto& c : watched_)
          if (!c->fired && now > c->until) {
            c->fired = true;
            ::kill(c->pid, SIGKILL);
          }
      }
    }).detach();
  }
  std::mutex mutex_;
  std::vector<std::shared_ptr<Watched>> watched_;
};

// Past the lock's own timeout, how long the watchdog waits before it kills the process.
constexpr std::chrono::milliseconds kDriverGrace{2000};

}  // namespace

std::string DeviceLock::unavailable() { return driver().missing; }

DeviceLock::Result DeviceLock::lock(const std::vector<pid_t>& pids, std::chrono::milliseconds limit,
                                    std::string* why) {
  const Driver& d = driver();
  for (pid_t pid : pids) {
    if (!looked_at_.insert(pid).second) continue;
    const Files files = files_of(pid);
    if (files == Files::None) continue;
    if (!d.missing.empty()) {
      *why = d.missing;
      return Result::Failed;
    }
    CUcheckpointLockArgs args{};
    args.timeoutMs = static_cast<unsigned>(limit.count());
    bool killed = false;
    const CUresult r = Watchdog::run(pid, limit + kDriverGrace, &killed, [&] { return d.lock(pid, &args); });
    if (r == CUDA_SUCCESS) {
      locked_.push_back(pid);
      continue;
    }
    if (killed || r == CUDA_ERROR_NOT_READY || r == CUDA_ERROR_TIMEOUT) {
      *why = "process " + std::to_string(pid) + ": " + name_of(r) +
             (killed ? ", and it did not let the driver lock it: killed" : "");
      return Result::Busy;
    }
    // Not a CUDA process after all (one forked from one, holding its device files, say), or one that ended; but
    // one the judge may not look into must be locked, as the driver may refuse both calls on it for that.
    CUprocessState state{};
    if (ended(pid) || (d.state(pid, &state) != CUDA_SUCCESS && files != Files::Hidden)) continue;
    *why = "the driver could not lock process " + std::to_string(pid) + ": " + name_of(r);
    return Result::Failed;
  }
  return Result::Locked;
}

bool DeviceLock::unlock(std::string* why) {
  const Driver& d = driver();
  bool ok = true;
  for (pid_t pid : locked_) {
    CUcheckpointUnlockArgs args{};
    bool killed = false;
    const CUresult r = Watchdog::run(pid, kDriverGrace, &killed, [&] { return d.unlock(pid, &args); });
    if (r != CUDA_SUCCESS && (killed || !ended(pid)) && ok) {
      ok = false;
      *why = "the driver could not unlock process " + std::to_string(pid) + ": " + name_of(r) +
             (killed ? " (it would not run, and was killed)" : "");
    }
  }
  locked_.clear();
  looked_at_.clear();
  return ok;
}
#endif

}  // namespace hpcjudge
