// expect: NO-GAIN over honest-twin.cpp
// Forgery by slowing the clock's owner: the judge times every call on its own thread, and where it runs as the
// same ordinary user as the runners (no sandbox), the runner's code may pin that thread to one CPU and raise its
// nice value (no privilege needed, and none may lower it again). A judge that wakes late to every reply adds the
// same delay to every side of a ratio, which pulls a slow file's ratio to the fast reference towards 1; pinned to
// the CPU the rivals' threads use, it wakes late for the calls after the submission's in each run. In each call
// this file pins every thread of its parent, the judge, to CPU 0 at nice 19. The judge looks at its own thread
// after the functional tests and after each of the submission's timed calls (judge/isolation/scheduling.h): FAIL.
// As root, the runner has a user of its own: the file's time is its twin's.
#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>

extern "C" void solve(const float* input, float* output, int N) {
    if (DIR* d = opendir(("/proc/" + std::to_string(getppid()) + "/task").c_str())) {
        while (const dirent* e = readdir(d))
            if (const int tid = std::atoi(e->d_name); tid > 0) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(0, &one);
                sched_setaffinity(tid, sizeof one, &one);
                setpriority(PRIO_PROCESS, static_cast<id_t>(tid), 19);
            }
        closedir(d);
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
