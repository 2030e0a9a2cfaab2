// A runner's own places to write files: its TMPDIR and /dev/shm, each a fresh tmpfs of bounded size (its memory
// limit) in a mount namespace of the runner's own. What the submission writes there is memory the judge counts
// against its limit (judge/isolation/runner_files.h, after each call), no more than the mount's size can be
// written at all, and all of it is gone when the runner's last process ends: nothing survives its grade, and no
// participant finds another's files. Its /dev/pts is an empty folder (no terminal of its user's to open by path).
// Under bubblewrap the sandbox makes the same mounts (its /tmp, which is the
// runner's TMPDIR there, and /dev/shm: judge/isolation/sandbox.cpp).
//
// Made as root by the judge's child before it becomes the runner's user (a mount namespace alone), or else by the
// runner itself as its first step (`hpcjudge-runner --private-tmp BYTES`), in a user namespace of its own that maps
// its own ids: the judge's child holds a copy of the judge's memory and is not dumpable until it runs the
// runner, so only the runner may write its /proc/self/uid_map. Where neither can be made (an ordinary user where
// user namespaces are off), HPCJUDGE_PRIVATE_TMP stays unset, the runner's confinement (runner/confine.h)
// withholds /dev/shm, and TMPDIR is the judge's folder on disk, counted by walking it and removed after the grade.
#pragma once

#include <cstddef>
#include <string>

namespace hpcjudge {

// Whether this process's environment says its TMPDIR and /dev/shm are mounts of its own ("1" in
// settings::kPrivateTmp).
bool private_tmp_made();

// What is mounted, prepared before fork (the judge's child allocates nothing for it).
struct PrivateTmp {
  std::string tmpdir;          // the runner's TMPDIR (an existing folder); "" for none of this
  std::string tmpdir_options;  // tmpfs options: size, mode 0700, the runner's user as root
  std::string shm_options;     // /dev/shm's: size, mode 1777
  std::string uid_map, gid_map;  // not as root: this user's own ids in its user namespace ("ID ID 1")
};

// The mounts of `bytes` each for a runner of user `owner` (0: the caller's own user).
PrivateTmp private_tmp_for(const std::string& tmpdir, size_t bytes, unsigned owner);

// Enters a mount namespace of its own (not as root: a user namespace first) and mounts both. The caller must be
// single-threaded and, not as root, dumpable. Returns false where that is refused.
bool enter_private_tmp(const PrivateTmp& p);

}  // namespace hpcjudge
