// The files a runner wrote: what its own tmpfs mounts hold (protocol/private_tmp.h), what its folder on disk holds
// where it has none, and as root what its user left in the machine's shared places to write.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace hpcjudge {

// The bytes the files in a family's private mounts hold (`at`: absolute paths as the family sees them, such as
// its TMPDIR and /dev/shm), counted once for each mount a process of `pids` has in a mount namespace that is not
// the judge's; `devices` gets each such mount's device (its files are counted here, not again as open files).
size_t private_tmp_bytes(const std::vector<int>& pids, const std::vector<std::string>& at, std::vector<dev_t>* devices);

// The bytes the files beneath `folder` hold on disk (a folder of the runner's own on the judge's filesystem).
size_t folder_bytes(const std::string& folder);

// As root, where a runner's user wrote outside its own mounts (no mount namespace, no Landlock): removes what
// user `uid` left in the machine's shared places to write (/tmp, /var/tmp, /dev/shm, /dev/mqueue).
void remove_files_of_user(unsigned uid);

}  // namespace hpcjudge
