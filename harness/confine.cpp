#include "confine.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hpcjudge {

namespace {

// Landlock's ABI (include/uapi/linux/landlock.h), spelt out: the system's header may predate the rights used here.
constexpr uint32_t kCreateRulesetVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;
constexpr uint64_t kWriteFile = 1ull << 1, kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeChar = 1ull << 6,
                   kMakeDir = 1ull << 7, kMakeReg = 1ull << 8, kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10,
                   kMakeBlock = 1ull << 11, kMakeSym = 1ull << 12, kRefer = 1ull << 13, kTruncate = 1ull << 14;
constexpr uint64_t kScopeSignal = 1ull << 1;

struct RulesetAttr {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;  // version 4 and later
  uint64_t scoped = 0;              // version 6 and later
};

struct __attribute__((packed)) PathBeneath {
  uint64_t allowed_access;
  int32_t parent_fd;
};

// Allows `rights` beneath `path` in ruleset `ruleset`, where the path exists.
void allow(int ruleset, const char* path, uint64_t rights) {
  const int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return;
  const PathBeneath rule{rights, fd};
  syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0);
  close(fd);
}

}  // namespace

int landlock_version() {
  const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi < 1 ? 0 : static_cast<int>(abi);
}

int confine_runner(bool under_tool) {
  // No privilege gained through exec from here on, Landlock or not: a set-user-ID or set-group-ID helper of the
  // system's (crontab, at) runs as the runner's user, so no job of the submission's is left to run after the grade.
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  const long abi = landlock_version();
  if (abi < 1) return 0;
  uint64_t writes = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock | kMakeFifo |
                    kMakeBlock | kMakeSym;
  if (abi >= 2) writes |= kRefer;
  if (abi >= 3) writes |= kTruncate;
  RulesetAttr attr;
  attr.handled_access_fs = writes;
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 4) size = offsetof(RulesetAttr, scoped);
  if (abi >= 6 && !under_tool) {  // the tool's process, outside the runner's domain, may need its signals
    attr.scoped = kScopeSignal;
    size = sizeof attr;
  }
  const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return 0;
  const char* tmpdir = std::getenv("TMPDIR");  // the judge's choice (judge/isolation/session.cpp)
  allow(ruleset, tmpdir && *tmpdir ? tmpdir : "/tmp", writes);
  allow(ruleset, "/dev/shm", writes);
  if (under_tool) allow(ruleset, "/tmp", writes);  // where the tool's own files are
  allow(ruleset, "/dev", kWriteFile | (abi >= 3 ? kTruncate : 0));
  const bool ok = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  close(ruleset);
  return ok ? static_cast<int>(abi) : 0;
}

}  // namespace hpcjudge
