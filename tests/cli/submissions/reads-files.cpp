// A correct softmax-cpu that, on its first call, tries to read what a runner may and what it may not, and says on
// stderr what it could read (tests/cli/same_user_test.sh). Graded as the judge's own user without the sandbox,
// that user's files are the runner's, so the kernel keeps them (runner/confine.h, Landlock): the judge's cache
// ($HPCJUDGE_CACHE: the cached scale, the compiled references, the cached reference answers), the repository's
// answers and tests (problems/*/solutions/, problems/*/submissions/, problems/families/, tests/, found from
// the runner's own path) and the judge's other temporary
// folders (hpcjudge-* beside $TMPDIR, but its own library there) are refused; its own temporary folder and the
// system's files are read.
#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool readable(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return false;
    char c;
    const bool ok = std::fread(&c, 1, 1, f) == 1;
    std::fclose(f);
    return ok;
}

// This file's own library, which lies in one of the judge's temporary folders.
std::string own_library() {
    Dl_info self{};
    return dladdr(reinterpret_cast<void*>(&readable), &self) && self.dli_fname ? self.dli_fname : "";
}

// "read" where any file the pattern finds (but this library and those beneath `except`) can be read, "refused"
// where none can, "none" where it finds none.
std::string any_read(const std::string& pattern, const std::string& except = "") {
    glob_t g{};
    std::string said = "none";
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) {
            const std::string path = g.gl_pathv[i];
            if ((!except.empty() && path.rfind(except, 0) == 0) || path == own_library()) continue;
            if (readable(g.gl_pathv[i])) {
                said = "read";
                break;
            }
            said = "refused";
        }
    globfree(&g);
    return said;
}

std::string repository() {
    char exe[4096] = {};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) <= 0) return "";
    std::string r(exe);  // <build>/judge/hpcjudge-runner, the build in <repository>/build
    for (int i = 0; i < 3; ++i) r = r.substr(0, r.rfind('/'));
    return r;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static bool said = false;
    if (!said) {
        said = true;
        const char* tmp = std::getenv("TMPDIR");
        const char* cache = std::getenv("HPCJUDGE_CACHE");
        const std::string own = tmp && *tmp ? tmp : "/tmp";
        if (FILE* f = std::fopen((own + "/own.txt").c_str(), "w")) std::fputs("x", f), std::fclose(f);
        const std::string repo = repository();
        std::fprintf(stderr, "own temporary folder: %s; system: %s; cache: %s; reference: %s; tests: %s; "
                     "the judge's other temporary folders: %s\n",
                     readable(own + "/own.txt") ? "read" : "refused", readable("/etc/passwd") ? "read" : "refused",
                     cache ? any_read(std::string(cache) + "/*.json").c_str() : "none",
                     any_read(repo + "/problems/softmax-cpu/solutions/*.cpp").c_str(),
                     any_read(repo + "/problems/softmax-cpu/submissions/AC/*.cpp").c_str(),
                     any_read(own.substr(0, own.rfind('/')) + "/hpcjudge-*/*", own + "/").c_str());
    }
    float m = -INFINITY;
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i] - m) / s);
}
