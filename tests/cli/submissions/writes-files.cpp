// A correct softmax-cpu that, on its first call, writes a file in its own temporary folder ($TMPDIR), which it may,
// and tries one beside it in /tmp and one in the judge's cache ($HPCJUDGE_CACHE), which a runner confined by the
// kernel may not (runner/confine.h), and says on stderr what it could write (tests/cli/same_user_test.sh).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
bool wrote(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    const bool ok = std::fputs("x", f) >= 0;
    std::fclose(f);
    std::remove(path.c_str());
    return ok;
}
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static bool said = false;
    if (!said) {
        said = true;
        const char* tmp = std::getenv("TMPDIR");
        const char* cache = std::getenv("HPCJUDGE_CACHE");
        std::fprintf(stderr, "own temporary folder: %s; /tmp: %s; cache: %s\n",
                     tmp && wrote(std::string(tmp) + "/own.txt") ? "written" : "refused",
                     wrote("/tmp/hpcjudge-writes-files-test.txt") ? "written" : "refused",
                     cache && wrote(std::string(cache) + "/escaped.txt") ? "written" : "refused");
    }
    float m = -INFINITY;
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i] - m) / s);
}
