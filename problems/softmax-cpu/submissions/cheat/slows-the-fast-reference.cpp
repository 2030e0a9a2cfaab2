// expect: NO-GAIN over honest-twin.cpp
// Forgery by slowing the other side: the fast reference is timed beside the submission, in a runner of its own
// that waits, stopped, while the submission's call runs. Where the judge and its runners run as one ordinary user
// (no sandbox), any of their processes may pin another's threads to one CPU and lower their priority, no
// privilege needed. In each call this file pins every other runner's threads (/proc, "hpcjudge-runner") to CPU 0
// at nice 19, having first given its own threads every CPU back (the functional tests' runner, which is this file
// too, pinned the performance cases' runner). The fast reference's OpenMP team then shares one CPU: its calls
// slow down by up to the number of cores, and the submission's ratio to it shrinks (on the 2-core VM, 50.9
// against its honest twin's 46.8 before the judge looked). The judge checks before each of its runners' calls,
// and after each of the submission's, that they run as they started (judge/isolation/scheduling.h): FAIL. As
// root, each runner has a user of its own and none of this is allowed: the file's time is its twin's.
#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Calls f(tid) for every thread of process `pid` ("self" for this one).
template <class F>
void each_thread(const std::string& pid, F f) {
    if (DIR* d = opendir(("/proc/" + pid + "/task").c_str())) {
        while (const dirent* e = readdir(d))
            if (const int tid = std::atoi(e->d_name); tid > 0) f(tid);
        closedir(d);
    }
}

void slow_the_other_runners() {
    cpu_set_t every, one;
    CPU_ZERO(&every);
    for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &every);
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    each_thread("self", [&](int tid) { sched_setaffinity(tid, sizeof every, &every); });
    const std::string self = std::to_string(getpid());
    DIR* proc = opendir("/proc");
    if (!proc) return;
    while (const dirent* p = readdir(proc)) {
        if (std::atoi(p->d_name) <= 0 || self == p->d_name) continue;
        char comm[64] = {};
        if (FILE* f = std::fopen(("/proc/" + std::string(p->d_name) + "/comm").c_str(), "r")) {
            if (!std::fgets(comm, sizeof comm, f)) comm[0] = 0;
            std::fclose(f);
        }
        if (std::string(comm).rfind("hpcjudge-runner", 0) != 0) continue;
        each_thread(p->d_name, [&](int tid) {
            sched_setaffinity(tid, sizeof one, &one);
            setpriority(PRIO_PROCESS, static_cast<id_t>(tid), 19);
        });
    }
    closedir(proc);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    slow_the_other_runners();
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
