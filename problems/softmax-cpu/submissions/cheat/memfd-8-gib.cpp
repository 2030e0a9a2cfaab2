// expect: MLE
// Cheat on the memory limit: holds 8 GiB of host memory in a memfd of its own, grown with fallocate and never
// mapped, so the address-space limit (RLIMIT_AS) never sees it, then computes a correct softmax. Must get MLE: no
// file of the runner's may grow past the memory limit (RLIMIT_FSIZE, which binds memfds and /dev/shm too).
// hpcjudge-test: message=memory limit
// hpcjudge-test: memory-limit=1024
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {
int held = -1;
}

extern "C" void solve(const float* input, float* output, int N) {
  if (held < 0) {
    held = memfd_create("hoard", 0);
    if (held >= 0 && fallocate(held, 0, 0, off_t{8} << 30) != 0) std::perror("fallocate");
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::max(m, input[i]);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
