#include "runner/confine.h"

#include "protocol/private_tmp.h"
#include "settings/settings.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

namespace hpcjudge {

namespace {

// Landlock's ABI (include/uapi/linux/landlock.h), spelt out: the system's header may predate the rights used here.
constexpr uint32_t kCreateRulesetVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;
constexpr uint64_t kReadFile = 1ull << 2;
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

// Allows `rights` beneath `path` in ruleset `ruleset`, where the path exists. `open_flags` beside O_PATH:
// O_NOFOLLOW for a rule on a symbolic link itself, not where it leads (a rule that grants nothing: an access is
// checked on the path it resolves to).
void allow(int ruleset, const char* path, uint64_t rights, int open_flags = 0) {
  const int fd = open(path, O_PATH | O_CLOEXEC | open_flags);
  if (fd < 0) return;
  const PathBeneath rule{rights, fd};
  syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0);
  close(fd);
}

// The path with every link resolved, as Landlock sees it; "" where it does not exist.
std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string parent_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string child_of(const std::string& dir, const std::string& name) { return (dir == "/" ? "" : dir) + "/" + name; }

// The entries of `dir` (not . and ..); none where it cannot be listed.
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::string n = e->d_name; n != "." && n != "..") names.push_back(std::move(n));
    closedir(d);
  }
  return names;
}

// The judge's other temporary folders: the siblings of the runner's own (TMPDIR) named as it is up to its last
// '-' (hpcjudge-XXXXXX), such as the one the fast reference is compiled in to be timed beside the submission.
std::vector<std::string> judges_other_folders(const std::string& own) {
  std::vector<std::string> found;
  const std::string dir = parent_of(own), name = own.substr(own.rfind('/') + 1);
  const size_t dash = name.rfind('-');
  if (own.empty() || dash == std::string::npos) return found;
  for (const std::string& n : entries(dir))
    if (n != name && n.compare(0, dash + 1, name, 0, dash + 1) == 0) found.push_back(child_of(dir, n));
  return found;
}

// Reading allowed everywhere but beneath `hidden` (real paths): every entry of each folder on the way to a hidden
// path, but that way and the hidden paths themselves, allowed beneath (a folder) or by name (a file). A symbolic
// link is passed over: Landlock looks at where a path leads, which has a rule of its own where it is not hidden.
void allow_reading_but(int ruleset, const std::vector<std::string>& hidden) {
  std::set<std::string> way;
  for (const std::string& h : hidden)
    for (std::string p = parent_of(h); way.insert(p).second && p != "/"; p = parent_of(p)) {
    }
  const std::set<std::string> not_allowed(hidden.begin(), hidden.end());
  for (const std::string& dir : way)
    for (const std::string& n : entries(dir)) {
      const std::string path = child_of(dir, n);
      if (!way.count(path) && !not_allowed.count(path)) allow(ruleset, path.c_str(), kReadFile, O_NOFOLLOW);
    }
}

// A terminal's device: the grader's, or any other, is no runner's to write to (escape sequences past the judge's
// output capture). /dev/ptmx, which makes a new one, likewise.
bool terminal_device(const std::string& name) {
  return name == "pts" || name == "ptmx" || name == "console" || name.rfind("tty", 0) == 0 || name.rfind("vcs", 0) == 0;
}

// Writing to /dev's devices as they are (/dev/null, a GPU's nodes) but no terminal; /dev/shm has its own rule.
void allow_device_writes(int ruleset, uint64_t rights) {
  for (const std::string& n : entries("/dev"))
    if (!terminal_device(n) && n != "shm") allow(ruleset, child_of("/dev", n).c_str(), rights);
}

}  // namespace

int landlock_version() {
  const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi < 1 ? 0 : static_cast<int>(abi);
}

int confine_runner(const ConfineOptions& opt) {
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
  const bool reads = !opt.hidden.empty();
  if (reads) attr.handled_access_fs |= kReadFile;
  if (abi >= 6 && !opt.under_tool) {  // the tool's process, outside the runner's domain, may need its signals
    attr.scoped = kScopeSignal;
    size = sizeof attr;
  }
  const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return 0;
  // The judge's choice (judge/isolation/session.cpp).
  const std::string given = settings::Settings::at_start().get(settings::kTmpdir).value_or("");
  const std::string own = given.empty() ? "/tmp" : given;
  const uint64_t read = reads ? kReadFile : 0;
  allow(ruleset, own.c_str(), writes | read);
  // /dev/shm only where it is a mount of the runner's own, bounded and counted (protocol/private_tmp.h).
  if (private_tmp_made()) allow(ruleset, "/dev/shm", writes | read);
  if (opt.under_tool) allow(ruleset, "/tmp", writes | read);  // where the tool's own files are
  allow_device_writes(ruleset, kWriteFile | (abi >= 3 ? kTruncate : 0));
  if (reads) {
    std::vector<std::string> hidden = judges_other_folders(real_path(own));
    for (const std::string& h : opt.hidden)
      if (std::string r = real_path(h); !r.empty() && r != "/") hidden.push_back(std::move(r));
    if (hidden.empty()) allow(ruleset, "/", kReadFile);
    else allow_reading_but(ruleset, hidden);
    if (!opt.library.empty()) allow(ruleset, opt.library.c_str(), kReadFile);
  }
  const bool ok = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  close(ruleset);
  return ok ? static_cast<int>(abi) : 0;
}

}  // namespace hpcjudge
