#include "protocol/private_tmp.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cstdlib>

#include "settings/settings.h"

namespace hpcjudge {

namespace {

bool write_file(const char* path, const std::string& text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

}  // namespace

bool private_tmp_made() {
  return settings::Settings::at_start().get(settings::kPrivateTmp) == "1";
}

PrivateTmp private_tmp_for(const std::string& tmpdir, size_t bytes, unsigned owner) {
  const std::string size = "size=" + std::to_string(bytes);
  const std::string user = std::to_string(owner != 0 ? owner : geteuid());
  const std::string group = std::to_string(owner != 0 ? owner : getegid());
  const std::string owned = owner != 0 ? ",uid=" + user + ",gid=" + group : "";
  return {.tmpdir = tmpdir,
          .tmpdir_options = size + ",mode=0700" + owned,
          .shm_options = size + ",mode=1777",
          .uid_map = user + " " + user + " 1",
          .gid_map = group + " " + group + " 1"};
}

bool enter_private_tmp(const PrivateTmp& p) {
  if (p.tmpdir.empty()) return false;
  if (geteuid() == 0) {
    if (unshare(CLONE_NEWNS) != 0) return false;
  } else {
    // Its own ids mapped (a file made with an unmapped owner is refused), and the right to mount in its own
    // mount namespace until it runs a program (exec drops it: it is not root there either).
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0 || !write_file("/proc/self/setgroups", "deny") ||
        !write_file("/proc/self/uid_map", p.uid_map) || !write_file("/proc/self/gid_map", p.gid_map))
      return false;
  }
  // Nothing mounted here is seen outside; what the machine mounts later still is.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) return false;
  // No terminal's device to open by its path either (its user's own pseudo-terminals, where no Landlock keeps
  // them: runner/confine.h): an empty, read-only /dev/pts. Where that is refused, the rest still holds.
  mount("tmpfs", "/dev/pts", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4096,mode=0555");
  return mount("tmpfs", p.tmpdir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, p.tmpdir_options.c_str()) == 0 &&
         mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, p.shm_options.c_str()) == 0;
}

}  // namespace hpcjudge
