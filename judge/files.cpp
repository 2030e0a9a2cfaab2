#include "judge/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <system_error>
#include <vector>

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

// read_regular_file, and the file's status as read (where `as_read` is not null).
std::string read_checked(const fs::path& file, size_t max_bytes, struct stat* as_read) {
  // O_NONBLOCK: a FIFO put in its place after a check does not stall the open.
  const int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP) throw FileRefused(file.string() + " is a symbolic link, not a regular file");
    throw FileRefused(file.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw FileRefused(file.string() + " is " + kind_of(st.st_mode) + ", not a regular file");
  }
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    close(fd);
    throw FileRefused(file.string() + " is " + std::to_string(st.st_size) + " bytes; at most " +
                      std::to_string(max_bytes) + " are read");
  }
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      close(fd);
      throw FileRefused(file.string() + ": " + std::strerror(e));
    }
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      close(fd);
      throw FileRefused(file.string() + " grew past " + std::to_string(max_bytes) + " bytes while being read");
    }
  }
  close(fd);
  if (as_read) *as_read = st;
  return text;
}

bool inside(const fs::path& p, const fs::path& folder) {
  auto a = p.begin();
  for (auto b = folder.begin(); b != folder.end(); ++b, ++a)
    if (a == p.end() || *a != *b) return false;
  return true;
}

}  // namespace

std::string not_a_regular_file(const fs::path& file, const fs::path& folder) {
  struct stat st {};
  if (lstat(file.c_str(), &st) != 0) return file.string() + ": " + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return file.string() + " is " + kind_of(st.st_mode) + ", not a regular file";
  if (folder.empty()) return "";
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec), home = fs::canonical(folder, ec);
  if (ec || !inside(real.parent_path(), home))
    return file.string() + " resolves to " + real.string() + ", outside the participant's folder";
  if (st.st_nlink > 1)
    return file.string() + " has " + std::to_string(st.st_nlink - 1) +
           " other hard link(s): it may be a file from elsewhere, so it is not graded";
  return "";
}

std::string unfollowed_link(const fs::path& file) {
  std::error_code ec;
  const fs::path start = fs::absolute(file, ec);
  if (ec) return "";  // the read that follows says why
  std::deque<std::string> todo;
  for (const fs::path& part : start.relative_path()) todo.push_back(part.string());
  fs::path at = "/";
  int links = 0;
  const uid_t me = geteuid();
  while (!todo.empty()) {
    const std::string part = todo.front();
    todo.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      at = at.parent_path();
      continue;
    }
    const fs::path next = at / part;
    struct stat st {};
    if (lstat(next.c_str(), &st) != 0) return "";  // missing: the read says so
    if (!S_ISLNK(st.st_mode)) {
      at = next;
      continue;
    }
    if (st.st_uid != 0 && st.st_uid != me)
      return file.string() + (next == start ? " is" : " leads through " + next.string() + ",") +
             " a symbolic link of user " + std::to_string(st.st_uid) +
             "'s: the judge follows only its own user's links and root's (copy the file)";
    if (++links > 40) return file.string() + ": too many levels of symbolic links";
    std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
    const ssize_t n = readlink(next.c_str(), target.data(), target.size());
    if (n <= 0) return "";
    target.resize(static_cast<size_t>(n));
    const fs::path t(target);
    std::vector<std::string> parts;
    for (const fs::path& q : t.relative_path()) parts.push_back(q.string());
    todo.insert(todo.begin(), parts.begin(), parts.end());
    if (t.is_absolute()) at = "/";
  }
  struct stat st {};
  if (links > 0 && me == 0 && stat(at.c_str(), &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & S_IROTH))
    return file.string() + " is a symbolic link to " + at.string() +
           ", which only its owner and group may read: as root the judge does not follow a link to it (copy the file)";
  return "";
}

std::string read_followed_file(const fs::path& file, size_t max_bytes) {
  if (const std::string why = unfollowed_link(file); !why.empty()) throw FileRefused(why);
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  if (ec) throw FileRefused(file.string() + ": " + ec.message());
  struct stat opened {};
  std::string text = read_checked(real, max_bytes, &opened);
  struct stat now {};
  if (!unfollowed_link(file).empty() || stat(file.c_str(), &now) != 0 || now.st_dev != opened.st_dev ||
      now.st_ino != opened.st_ino)
    throw FileRefused(file.string() + " changed while it was read (a link swapped in?): not graded");
  return text;
}

std::string read_regular_file(const fs::path& file, size_t max_bytes) { return read_checked(file, max_bytes, nullptr); }

void check_can_write(const fs::path& file) {
  struct stat st {};
  if (lstat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw FileRefused(file.string() + " is " + kind_of(st.st_mode) + ": cannot write the report there");
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (access(folder.c_str(), W_OK | X_OK) != 0)
    throw FileRefused(file.string() + ": cannot write the report there (" + folder.string() + ": " +
                      std::strerror(errno) + ")");
}

void write_file_atomically(const fs::path& file, const std::string& text) {
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::string part = (folder / ("." + file.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(part.data());
  if (fd < 0) throw FileRefused("cannot write " + file.string() + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      close(fd);
      unlink(part.c_str());
      throw FileRefused("cannot write " + file.string() + ": " + std::strerror(e));
    }
    done += static_cast<size_t>(n);
  }
  fchmod(fd, 0644);
  close(fd);
  if (rename(part.c_str(), file.c_str()) != 0) {
    const int e = errno;
    unlink(part.c_str());
    throw FileRefused("cannot write " + file.string() + ": " + std::strerror(e));
  }
}

std::string write_aside(const fs::path& file, const std::function<void(std::ostream&)>& fill) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  const fs::path part = file.string() + ".part" + std::to_string(getpid());
  std::string why;
  {
    std::ofstream out(part, std::ios::binary);
    if (out) fill(out);
    out.flush();
    if (!out) why = errno ? std::strerror(errno) : "cannot write";
  }
  if (why.empty()) {
    fs::rename(part, file, ec);
    if (!ec) return "";
    why = ec.message();
  }
  fs::remove(part, ec);
  return why;
}

void make_private_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  struct stat st {};
  if (lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077) != 0)
    chmod(dir.c_str(), 0700);
}

TempDir::TempDir(std::filesystem::perms mode) {
  std::string t = (std::filesystem::temp_directory_path() / "hpcjudge-XXXXXX").string();
  if (!mkdtemp(t.data())) throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder " + t);
  path = t;
  std::filesystem::permissions(path, mode);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

}  // namespace hpcjudge
