// A hostile participant of tests/batch/hostile_test.sh: leaves CPU burners behind in sessions of their own (setsid,
// out of the runner's process group), named hpcjudge-burner, to slow down whoever is graded next, then computes a
// correct softmax. The test asserts that no burner outlives the batch.
#include <sys/prctl.h>
#include <unistd.h>

#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
  static bool once = false;
  if (!once) {
    once = true;
    for (int k = 0; k < 2; ++k)
      if (fork() == 0) {
        setsid();
        if (fork() == 0) {
          prctl(PR_SET_NAME, "hpcjudge-burner");
          for (volatile unsigned long i = 0;; ++i) {
          }
        }
        _exit(0);
      }
  }
  float m = input[0];
  for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
