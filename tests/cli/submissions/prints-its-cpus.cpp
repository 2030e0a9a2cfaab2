// A correct softmax-cpu that says, on its first call, how many CPUs the fewest of its OpenMP threads may run on
// and what OMP_PROC_BIND it was given (tests/cli/unbound_test.sh).
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" void solve(const float* input, float* output, int N) {
    static bool said = false;
    if (!said) {
        said = true;
        int fewest = CPU_SETSIZE;
#pragma omp parallel reduction(min : fewest)
        {
            cpu_set_t s;
            CPU_ZERO(&s);
            sched_getaffinity(0, sizeof s, &s);
            fewest = std::min(fewest, CPU_COUNT(&s));
        }
        const char* bind = std::getenv("OMP_PROC_BIND");
        std::fprintf(stderr, "fewest cpus %d; OMP_PROC_BIND %s\n", fewest, bind ? bind : "unset");
    }
    float m = -INFINITY;
#pragma omp parallel for reduction(max : m)
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    const float inv = static_cast<float>(1.0 / s);
#pragma omp parallel for
    for (int i = 0; i < N; ++i) output[i] = std::exp(input[i] - m) * inv;
}
