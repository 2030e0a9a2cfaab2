// expect: MLE
// Holds memory the judge does not count (issue 56, class 3): writes a file in /dev/shm at each call, an eighth of the
// memory limit (under the file-size limit; a call's time limit allows no more) and closed, never mapped, until
// together they are 1/16 past the memory limit (read from RLIMIT_AS, which the runner sets to it), stopping at the
// first write error (a full tmpfs: filled to the brim). No limit of one process sees a closed file in a tmpfs;
// without the sandbox the files outlived the grade. Must get MLE: a runner's /dev/shm is a tmpfs of its own, of
// bounded size, whose used bytes count against its memory limit, and is gone after the grade.
// hpcjudge-test: message=memory limit
// hpcjudge-test: memory-limit=1024
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// Writes `bytes` into a new file at `path`; false at the first error.
bool write_file(const std::string& path, size_t bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return false;
  const std::vector<char> block(size_t{1} << 20, 'x');
  bool ok = true;
  for (size_t done = 0; ok && done < bytes; done += block.size()) ok = write(fd, block.data(), block.size()) > 0;
  close(fd);
  return ok;
}

// One more file at each call until the files are 1/16 past the memory limit or a write fails.
void fill_dev_shm() {
  static size_t written = 0;
  static int files = 0;
  static bool failed = false;
  rlimit as{};
  getrlimit(RLIMIT_AS, &as);
  const size_t limit = as.rlim_cur == RLIM_INFINITY ? size_t{6} << 30 : as.rlim_cur;
  const size_t total = limit + limit / 16;
  if (failed || written >= total) return;
  const size_t bytes = std::min(limit / 8, total - written);
  const std::string path = "/dev/shm/hpcjudge-fill-" + std::to_string(getpid()) + "-" + std::to_string(files++);
  failed = !write_file(path, bytes);
  if (failed) std::perror(path.c_str());
  else written += bytes;
  std::fprintf(stderr, "%zu bytes written in /dev/shm of %zu\n", written, total);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  fill_dev_shm();
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
