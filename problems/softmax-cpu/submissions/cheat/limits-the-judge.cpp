// expect: RE
// Changes the judge's own limits (issue 56, class 5): prlimit on its parent, the judge where the runner is the
// judge's child, sets its open-file limit to 0 (the judge aborted: "poll: Invalid argument", exit 134) and its
// file-size limit to 0 (SIGXFSZ, exit 153). As root the runner is a user of its own, which may not; as an ordinary
// user without the sandbox it was the judge's own user. Stopped by the system-call filter every process the judge
// starts has: prlimit64 on a pid other than 0 or its own ends the process, RE; the judge grades on.
// hpcjudge-test: message=a system call no submission may make
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

extern "C" void solve(const float* input, float* output, int N) {
  static bool tried = false;
  if (!tried) {
    tried = true;
    const rlimit none{0, 0};
    if (prlimit(getppid(), RLIMIT_NOFILE, &none, nullptr) != 0) std::perror("prlimit RLIMIT_NOFILE");
    if (prlimit(getppid(), RLIMIT_FSIZE, &none, nullptr) != 0) std::perror("prlimit RLIMIT_FSIZE");
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
