// expect: MLE
// Holds memory or disk the judge does not count (issue 56, class 3): fallocates a file at each call, in $TMPDIR and
// in /tmp by turns (where one refuses a file, the other takes it), an eighth of the memory limit (under the
// file-size limit; a call's time limit allows no more) a MiB at a time and closed, until together they are 1/16
// past the memory limit (read from RLIMIT_AS, which the runner sets to it), stopping at the first error (a full
// folder: filled to the brim). No limit of one process sees a closed file; under the sandbox /tmp was an unbounded
// tmpfs (memory), without it $TMPDIR was on disk. Must get MLE: a runner's /tmp and $TMPDIR are a tmpfs of its
// own, of bounded size, whose used bytes count against its memory limit, and are gone after the grade.
// hpcjudge-test: message=memory limit
// hpcjudge-test: memory-limit=1024
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Fallocates a new file named `name` in the first of `dirs` that takes one, a MiB at a time up to `bytes`;
// the bytes it holds, and `failed` where no folder took it or a step failed (the folder is full).
size_t fallocate_in(const std::string (&dirs)[2], const std::string& name, size_t bytes, bool& failed) {
  failed = true;
  for (const std::string& dir : dirs) {
    const std::string path = dir + "/" + name;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) continue;
    constexpr size_t kStep = size_t{1} << 20;
    size_t done = 0;
    while (done < bytes && fallocate(fd, 0, static_cast<off_t>(done), static_cast<off_t>(kStep)) == 0) done += kStep;
    failed = done < bytes;
    if (failed) std::perror(path.c_str());
    close(fd);
    return done;
  }
  return 0;
}

// One more file at each call until the files are 1/16 past the memory limit or one fails.
void fill_tmpdir() {
  static size_t written = 0;
  static int files = 0;
  static bool failed = false;
  rlimit as{};
  getrlimit(RLIMIT_AS, &as);
  const size_t limit = as.rlim_cur == RLIM_INFINITY ? size_t{6} << 30 : as.rlim_cur;
  const size_t total = limit + limit / 16;
  if (failed || written >= total) return;
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string t = tmpdir && *tmpdir ? tmpdir : "/tmp";
  const std::string dirs[2][2] = {{t, "/tmp"}, {"/tmp", t}};
  const std::string name = "hpcjudge-fill-" + std::to_string(getpid()) + "-" + std::to_string(files);
  written += fallocate_in(dirs[files++ % 2], name, std::min(limit / 8, total - written), failed);
  std::fprintf(stderr, "%zu bytes fallocated in %s and /tmp of %zu\n", written, t.c_str(), total);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  fill_tmpdir();
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
