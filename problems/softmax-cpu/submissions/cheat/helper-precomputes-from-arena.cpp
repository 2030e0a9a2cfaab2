// expect: NO-GAIN over honest-twin.cpp
// Forgery of the timing by reading the inputs early: when the submission is loaded it forks a helper process that
// maps the shared memory holding the buffers (the runner's fd 4, named on its command line) and watches the input
// buffer. As soon as new inputs appear there it computes their softmax into a private page shared with solve(), so
// that solve() has only to copy the answer. Against a judge that wrote the next inputs while it computed its own
// reference, the answer was ready before the call began. Here every process of the runner, the helper too, is
// stopped while the judge works, and the inputs are written into the shared memory only just before the call: the
// helper starts when solve() starts, and waiting for it is no faster than computing.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstring>

namespace {
constexpr size_t kPage = 4096;
constexpr size_t kMax = size_t{1} << 25;  // elements the helper can hold an answer for

struct Shared {
    std::atomic<long> n{0};          // the size solve() saw last (the helper's guess for the next inputs)
    std::atomic<unsigned> seen{0};   // a checksum of the inputs the answer is for
    std::atomic<int> ready{0};
    float answer[kMax];
};
Shared* shared = nullptr;

unsigned checksum(const float* x, long n) {
    unsigned h = 2166136261u;
    const unsigned char* b = reinterpret_cast<const unsigned char*>(x);
    const long step = n > 4096 ? n / 4096 : 1;
    for (long i = 0; i < n; i += step) h = (h ^ b[4 * i] ^ (b[4 * i + 1] << 8)) * 16777619u;
    return h;
}

void softmax(const float* in, float* out, long n) {
    float m = -INFINITY;
    for (long i = 0; i < n; ++i) m = std::fmax(m, in[i]);
    double s = 0;
    for (long i = 0; i < n; ++i) s += std::exp(in[i] - m);
    for (long i = 0; i < n; ++i) out[i] = static_cast<float>(std::exp(in[i] - m) / s);
}

void helper() {
    void* arena = MAP_FAILED;
    size_t mapped = 0;
    unsigned last = 0;
    for (;;) {
        const long n = shared->n.load();
        const size_t need = kPage + static_cast<size_t>(n) * 4;
        if (n <= 0 || n > static_cast<long>(kMax)) { usleep(100); continue; }
        if (need > mapped) {
            if (arena != MAP_FAILED) munmap(arena, mapped);
            arena = mmap(nullptr, need, PROT_READ, MAP_SHARED, 4, 0);
            mapped = arena == MAP_FAILED ? 0 : need;
            if (arena == MAP_FAILED) { usleep(100); continue; }
        }
        const float* in = reinterpret_cast<const float*>(static_cast<char*>(arena) + kPage);  // the first buffer
        const unsigned h = checksum(in, n);
        if (h == last) continue;
        shared->ready = 0;
        softmax(in, shared->answer, n);
        shared->seen = h;
        shared->ready = 1;
        last = h;
    }
}

struct Install {
    Install() {
        void* p = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return;
        shared = new (p) Shared;
        if (fork() == 0) {
            helper();
            _exit(0);
        }
    }
} install;
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    if (shared) shared->n = N;
    if (shared && N <= static_cast<int>(kMax)) {
        const unsigned h = checksum(input, N);
        for (int spin = 0; spin < 2000000; ++spin) {
            if (shared->ready && shared->seen == h) {
                std::memcpy(output, shared->answer, static_cast<size_t>(N) * 4);
                return;
            }
        }
    }
    softmax(input, output, N);
}
