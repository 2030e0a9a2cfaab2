#include "judge/isolation/runner_files.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

std::string mount_namespace(const std::string& proc) {
  char buf[64];
  const ssize_t n = readlink((proc + "/ns/mnt").c_str(), buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

size_t private_tmp_bytes(const std::vector<int>& pids, const std::vector<std::string>& at, std::vector<dev_t>* devices) {
  const std::string own = mount_namespace("/proc/self");
  std::set<std::string> namespaces;
  std::set<dev_t> counted;
  size_t total = 0;
  for (int pid : pids) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::string ns = mount_namespace(proc);
    if (ns.empty() || ns == own || !namespaces.insert(ns).second) continue;
    for (const std::string& path : at) {
      struct stat theirs {}, ours {};
      struct statvfs vfs {};
      const std::string there = proc + "/root" + path;
      // A mount of its own: not the judge's own view of the same path (the machine's /tmp seen from the
      // runner's namespace is not the runner's to be charged for).
      if (stat(there.c_str(), &theirs) != 0 || (stat(path.c_str(), &ours) == 0 && ours.st_dev == theirs.st_dev)) continue;
      if (!counted.insert(theirs.st_dev).second || statvfs(there.c_str(), &vfs) != 0) continue;
      total += static_cast<size_t>(vfs.f_blocks - vfs.f_bfree) * vfs.f_frsize;
      if (devices) devices->push_back(theirs.st_dev);
    }
  }
  return total;
}

size_t folder_bytes(const std::string& folder) {
  size_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (lstat(it->path().c_str(), &st) == 0) total += static_cast<size_t>(st.st_blocks) * 512;
  }
  return total;
}

void remove_files_of_user(unsigned uid) {
  for (const char* place : {"/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue"}) {
    std::error_code ec;
    for (fs::directory_iterator it(place, ec), end; !ec && it != end; it.increment(ec)) {
      struct stat st {};
      if (lstat(it->path().c_str(), &st) != 0 || st.st_uid != uid) continue;
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

}  // namespace hpcjudge
