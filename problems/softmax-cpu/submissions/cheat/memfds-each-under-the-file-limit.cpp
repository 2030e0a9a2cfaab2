// expect: MLE
// Cheat on the memory limit: holds two shared-memory files of 0.6 times its file-size limit each (1.2 times the
// memory limit together), grown with fallocate and never mapped. Each stays under the file-size limit
// (RLIMIT_FSIZE) and none is in the address space (RLIMIT_AS), so no limit of one process sees them. Must get MLE: the judge
// counts the memory of the runner's whole family, files included, after every call.
// hpcjudge-test: message=memory limit
// hpcjudge-test: memory-limit=1024
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {
bool holding = false;
}

extern "C" void solve(const float* input, float* output, int N) {
  if (!holding) {
    holding = true;
    rlimit files{};
    getrlimit(RLIMIT_FSIZE, &files);
    const off_t each = files.rlim_cur == RLIM_INFINITY ? off_t{4} << 30 : static_cast<off_t>(files.rlim_cur / 10 * 6);
    for (int k = 0; k < 2; ++k) {
      const int fd = memfd_create("hoard", 0);
      if (fd < 0 || fallocate(fd, 0, 0, each) != 0) std::perror("memfd");
    }
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::max(m, input[i]);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
