// expect: NO-GAIN over honest-twin.cpp
// Forgery of the timing by work left for later: solve() returns at once and leaves the work to a thread that first
// sleeps past any look at busy threads, then computes while holding stdout's lock, so that a runner which flushed
// stdout before its reply would wait for it and deliver the outputs complete, untimed. The judge stops every process
// of the runner the moment the reply reaches it, before it reads the outputs, and flushes stdout only in an untimed
// request after that: the outputs are not there when they are checked (WA).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <thread>

extern "C" void solve(const float* input, float* output, int N) {
    std::thread([=] {
        flockfile(stdout);
        usleep(35000);
        float m = -INFINITY;
        for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
        double s = 0;
        for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
        for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i] - m) / s);
        funlockfile(stdout);
    }).detach();
    usleep(1000);  // the worker holds the lock before the call returns
}
