// Forgery by borrowing: the judge compiles the fast reference to time it beside the submission, and keeps every
// compiled library (the references', other participants') in its cache. This file looks for those libraries
// where the judge leaves them, the cache (build/cache/compiled/softmax-cpu-*.so, $HPCJUDGE_CACHE/compiled/) and
// the judge's temporary folders (hpcjudge-*/ in $TMPDIR and beside it: submission.so, the name every library had
// there, and any other *.so), loads each one that is not itself, keeps the fastest that computes its own answer
// on a probe, and returns that library's solve() for every call, saying so on stderr ("borrowed ..."). Judged as
// root, each runner is a user of its own, the cache's compiled/ and references/ folders are the judge's alone and
// a temporary folder cannot be listed by another user, where the library has a name only the judge knows:
// nothing is borrowed (tests/cli/borrow_test.sh). Graded as the judge's own user without the sandbox, where that
// user's files are the runner's, the runner may read none of these (runner/confine.h, where the kernel has
// Landlock: tests/cli/same_user_test.sh).
#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Solve = void (*)(const float*, float*, int);

void naive(const float* input, float* output, int N) {
    float m = -INFINITY;
    for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(input[i] - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i] - m) / s);
}

void glob_into(const std::string& pattern, std::vector<std::string>& found) {
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) found.push_back(g.gl_pathv[i]);
    globfree(&g);
}

std::vector<std::string> candidates() {
    std::vector<std::string> found;
    char exe[4096] = {};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) > 0) {
        std::string build(exe);
        build = build.substr(0, build.rfind('/'));
        build = build.substr(0, build.rfind('/'));
        glob_into(build + "/cache/compiled/softmax-cpu-*.so", found);
    }
    if (const char* cache = std::getenv("HPCJUDGE_CACHE"); cache && *cache)
        glob_into(std::string(cache) + "/compiled/softmax-cpu-*.so", found);
    // The judge's temporary folders: in TMPDIR, or beside it where TMPDIR is a folder the judge made.
    const char* tmp = std::getenv("TMPDIR");
    const std::string t = tmp && *tmp ? tmp : "/tmp";
    for (const std::string& dir : {t, t.substr(0, t.rfind('/'))}) {
        DIR* d = opendir(dir.empty() ? "/" : dir.c_str());
        if (!d) continue;
        while (const dirent* e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.rfind("hpcjudge-", 0) != 0) continue;
            found.push_back(dir + "/" + name + "/submission.so");
            glob_into(dir + "/" + name + "/*.so", found);
        }
        closedir(d);
    }
    return found;
}

Solve borrowed() {
    static Solve best = nullptr;
    static bool looked = false;
    if (looked) return best;
    looked = true;
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&naive), &self);
    const int n = 1 << 16;
    std::vector<float> in(n), want(n), got(n);
    for (int i = 0; i < n; ++i) in[i] = std::sin(0.37f * i) * 10;
    naive(in.data(), want.data(), n);
    double best_s = 1e30;
    std::string from;
    for (const std::string& path : candidates()) {
        if (self.dli_fname && path == self.dli_fname) continue;
        void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) continue;
        const auto s = reinterpret_cast<Solve>(dlsym(h, "solve"));
        if (!s || reinterpret_cast<void*>(s) == reinterpret_cast<void*>(&naive)) continue;
        Dl_info theirs{};
        if (dladdr(reinterpret_cast<void*>(s), &theirs) && self.dli_fbase == theirs.dli_fbase) continue;
        const auto t0 = std::chrono::steady_clock::now();
        s(in.data(), got.data(), n);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        bool right = true;
        for (int i = 0; i < n && right; ++i) right = std::fabs(got[i] - want[i]) <= 1e-5f + 1e-3f * want[i];
        if (right && took < best_s) best_s = took, best = s, from = path;
    }
    if (best) std::fprintf(stderr, "borrowed %s\n", from.c_str());
    return best;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    if (const Solve s = borrowed()) return s(input, output, N);
    naive(input, output, N);
}
