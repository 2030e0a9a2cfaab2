// A correct softmax-cpu that prints: three lines on its first calls, then 30 lines with
// a terminal escape on each of the two calls with N = 1000 (63 lines in all).
#include <cmath>
#include <cstdio>

extern "C" void solve(const float* input, float* output, int N) {
  static int calls = 0;
  if (calls++ < 3) std::printf("call %d: N=%d\n", calls, N);
  double m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
  if (N == 1000)
    for (int k = 0; k < 30; ++k) std::printf("debug line %d \033[31mred\033[0m\n", k);
  std::fflush(stdout);
}
