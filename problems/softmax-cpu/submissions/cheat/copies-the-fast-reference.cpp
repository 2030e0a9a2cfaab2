// expect: NO-GAIN over honest-twin.cpp
// Forgery by copying: the fast reference runs beside the submission, in a runner of its own, on the same inputs
// and buffers laid out the same way. Where the judge and its runners run as one ordinary user, this file looks
// for the other runners (/proc), finds each one's buffers (its /proc/PID/maps) and reads them (/proc/PID/mem):
// where another runner's input holds this call's input and its output a finished softmax, it copies that output
// instead of computing it, so in every run where the fast reference went first, its call takes a copy's time (on
// the 2-core VM, 75.2 +- 17.8 against its honest twin's 46.8 before the judge's runners were closed to it). It
// says so on stderr ("copied ..."), which tests/cli/same_user_test.sh looks for. The judge's own runners may not
// be read by another process of the same user (they make themselves not dumpable: judge/isolation/session.h,
// SessionOptions::judges_own) and, as root, run as users of their own: the file computes every output itself.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// The start of the mapping of the judge's arena (a memfd named hpcjudge-arena) in /proc/PID/maps.
uintptr_t arena_base(const std::string& pid) {
    FILE* f = std::fopen(("/proc/" + pid + "/maps").c_str(), "r");
    if (!f) return 0;
    char line[512];
    uintptr_t base = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strstr(line, "hpcjudge-arena")) {
            base = std::strtoull(line, nullptr, 16);
            break;
        }
    std::fclose(f);
    return base;
}

struct Other {
    int mem;
    uintptr_t base;
};
std::vector<Other> others;  // the other runners' memory, found on the first call
bool looked = false;

void find_others() {
    looked = true;
    const std::string self = std::to_string(getpid());
    DIR* proc = opendir("/proc");
    if (!proc) return;
    while (dirent* e = readdir(proc)) {
        if (std::atoi(e->d_name) <= 0 || self == e->d_name) continue;
        const uintptr_t base = arena_base(e->d_name);
        if (!base) continue;
        const int mem = open(("/proc/" + std::string(e->d_name) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
        if (mem >= 0) others.push_back({mem, base});
    }
    closedir(proc);
}

bool copied(const float* input, float* output, int N) {
    const uintptr_t mine = arena_base("self");
    if (!mine) return false;
    if (!looked) find_others();
    const uintptr_t in_at = reinterpret_cast<uintptr_t>(input) - mine, out_at = reinterpret_cast<uintptr_t>(output) - mine;
    const size_t bytes = sizeof(float) * static_cast<size_t>(N);
    for (const Other& o : others) {
        float probe[64];  // this call's inputs there? 64 of them, spread over the array
        bool same = true;
        for (int k = 0; k < 64 && same; ++k) {
            const size_t i = static_cast<size_t>(N) * static_cast<size_t>(k) / 64;
            same = pread(o.mem, &probe[k], sizeof(float), static_cast<off_t>(o.base + in_at + 4 * i)) == 4 &&
                   probe[k] == input[i];
        }
        if (!same || pread(o.mem, output, bytes, static_cast<off_t>(o.base + out_at)) != static_cast<ssize_t>(bytes))
            continue;
        double sum = 0;  // a finished softmax, not an older run's output or the judge's poison
        for (int k = 0; k < 64; ++k) sum += output[static_cast<size_t>(N) * static_cast<size_t>(k) / 64];
        if (std::isfinite(sum) && output[0] >= 0 && output[0] <= 1) {
            static bool said = false;
            if (!said) std::fprintf(stderr, "copied the output of another runner from its memory\n");
            said = true;
            return true;
        }
    }
    return false;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    if (copied(input, output, N)) return;
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
