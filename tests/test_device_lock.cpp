// Which of a runner's processes the judge locks before it writes a call's buffers (judge/isolation/device_lock.h).
// The lock itself, on a runner with device work left running or queued, is judged on a GPU by the cheats
// problems/vector-add/submissions/cheat/kernel-left-running.cu and work-queued-behind-a-wait.cu.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <string>

#include "judge/isolation/device_lock.h"

using namespace hpcjudge;

namespace {

// A child that holds none of this process's files (a CUDA context's device files among them), opens `open_path`
// where given, makes itself not dumpable where asked, then waits to be killed.
struct Waiting {
  pid_t pid = -1;
  explicit Waiting(const char* open_path = nullptr, bool undumpable = false) {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (int fd = 3; fd < 1024; ++fd)
        if (fd != ready[1]) close(fd);
      if (open_path && open(open_path, O_RDWR) < 0) _exit(1);
      if (undumpable) prctl(PR_SET_DUMPABLE, 0);
      const char c = 1;
      if (write(ready[1], &c, 1) != 1) _exit(1);
      for (;;) pause();
    }
    close(ready[1]);
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1);
    close(ready[0]);
  }
  ~Waiting() {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
};

}  // namespace

TEST_CASE("a process with no device file open is looked at and left unlocked") {
  Waiting w;
  CHECK_FALSE(DeviceLock::uses_gpu(w.pid));
  DeviceLock lock;
  std::string why;
  CHECK(lock.lock({w.pid}, std::chrono::milliseconds(100), &why) == DeviceLock::Result::Locked);
  CHECK_FALSE(lock.held());
  CHECK(lock.looked_at().count(w.pid) == 1);
  CHECK(lock.unlock(&why));
  CHECK(lock.looked_at().empty());
}

TEST_CASE("a process holding an NVIDIA device file but no CUDA context is taken for none") {
  if (!std::filesystem::exists("/dev/nvidiactl")) SKIP("no NVIDIA device files here");
  Waiting w("/dev/nvidiactl");
  CHECK(DeviceLock::uses_gpu(w.pid));
  if (!DeviceLock::unavailable().empty()) SKIP("no process lock in this driver: " + DeviceLock::unavailable());
  DeviceLock lock;
  std::string why;
  CHECK(lock.lock({w.pid}, std::chrono::milliseconds(200), &why) == DeviceLock::Result::Locked);
  INFO(why);
  CHECK_FALSE(lock.held());
}

TEST_CASE("a process the judge may not look into is taken for one with device work") {
  if (geteuid() == 0) SKIP("root may look into every process");
  Waiting w(nullptr, true);
  CHECK(DeviceLock::uses_gpu(w.pid));
}
