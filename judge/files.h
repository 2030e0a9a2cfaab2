// Files the judge is handed are hostile input: a submission, a class folder, a
// seed file, a report's destination. Only a regular file is read (never a
// symlink, a FIFO, a device or a folder; a FIFO swapped in after the check is
// caught on the open descriptor), up to a size; a file graded as a participant's
// must lie inside that participant's folder. What the judge writes appears
// whole or not at all (written aside, then renamed over the target).
#pragma once
#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace hpcjudge {

// Why a file is refused: one line, naming the file.
struct FileRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "" when `file` is a regular file (a symlink is not one); otherwise why not.
// With `folder`: the file must also resolve to a place inside that folder, and
// have no other hard link (a link to a file elsewhere, such as a reference
// solution or a file of root's, is refused like a symlink to it).
std::string not_a_regular_file(const std::filesystem::path& file, const std::filesystem::path& folder = {});

// A temporary folder (under TMPDIR) for a compiled library, which others may pass
// through but not list (mode 0711): a runner of a user of its own loads the library
// by the name it is given (compiled_library(), which no other user can guess);
// removed with everything in it.
struct TempDir {
  std::filesystem::path path;
  // `mode`: owner_all alone for a folder that only its owner may use (a runner's TMPDIR).
  explicit TempDir(std::filesystem::perms mode = std::filesystem::perms::owner_all | std::filesystem::perms::group_exec |
                                                 std::filesystem::perms::others_exec);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Makes `dir` (and its parents) where missing and, where this user owns it, closes it to every other user (mode
// 0700), never throwing: the cache's compiled libraries (the references', other participants') and reference
// answers, which a runner of a user of its own (the judge run as root, without the sandbox) could read and use.
void make_private_folder(const std::filesystem::path& dir);

// Reads a regular file, not following a symlink, at most max_bytes; throws FileRefused.
std::string read_regular_file(const std::filesystem::path& file, size_t max_bytes);

// "" where the symbolic links met on the way to `file` (the file's own and its folders') may be followed;
// otherwise why not. Not a link of another user's than root and the judge's: it points where that user chooses,
// such as a file only the judge's user may read (/etc/shadow, graded as root; a grader's own files), whose lines
// a compiler's errors would then print in the report handed back. And as root, not a link to a file that others
// may not read: a submission is a file its author can read; /etc/shadow and a key in ~/.ssh are not.
std::string unfollowed_link(const std::filesystem::path& file);

// A file named outside a participant's folder (`judge SLUG FILE`, `judge pack`), read as read_regular_file does,
// through the symbolic links unfollowed_link allows. A link swapped in while it is read is caught: the file read
// must still be the one the path leads to after the read.
std::string read_followed_file(const std::filesystem::path& file, size_t max_bytes);

// Throws FileRefused when `file` cannot be written atomically: its folder is
// missing or not writable, or it is a folder, a device (/dev/full) or a FIFO.
void check_can_write(const std::filesystem::path& file);

// Writes `text` to `file` atomically (a temporary file beside it, renamed over
// it); throws FileRefused.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

// Writes `file` whole or not at all, never throwing: `fill` writes a file beside
// it (its folder made first if missing), which is then renamed over it, so a
// reader, another judge at work too, finds the old file or the new one. Returns
// "" or why not (the file beside removed). For caches and the local report,
// where a full disk costs that file, never the grade.
std::string write_aside(const std::filesystem::path& file, const std::function<void(std::ostream&)>& fill);

}  // namespace hpcjudge
