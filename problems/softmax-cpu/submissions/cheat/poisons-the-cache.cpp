// expect: NO-GAIN over honest-twin.cpp
// Forgery by poisoning the judge's cache: the scale a score is measured on comes, for a baseline too slow to time
// beside every run, from the cache (scale-<slug>-<machine>.json, "baseline_s" per case), and a baseline 1000 times
// slower makes any file's ratios to it look good. Where the judge and its runners run as one ordinary user without
// the sandbox, the cache is that user's: on its first call this file rewrites every softmax-cpu scale file there
// with each baseline_s times 1000, from one of its OpenMP threads (every later grade on the machine would be
// scored on it), and says so on stderr ("poisoned ..."). The runner confines itself before it loads a file
// (runner/confine.h, Landlock): nothing outside the temporary folders may be written, so the file is left as it
// was. As root the runner is a user of its own, which may not write the judge's cache either.
#include <glob.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

std::string cache_folder() {
    if (const char* c = std::getenv("HPCJUDGE_CACHE")) return c;
    char exe[4096] = {};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) <= 0) return "";
    std::string build(exe);
    build = build.substr(0, build.rfind('/'));
    return build.substr(0, build.rfind('/')) + "/cache";
}

void poison() {
    glob_t g{};
    if (glob((cache_folder() + "/scale-softmax-cpu-*.json").c_str(), 0, nullptr, &g) != 0) return;
    for (size_t i = 0; i < g.gl_pathc; ++i) {
        std::ifstream in(g.gl_pathv[i]);
        std::stringstream text;
        text << in.rdbuf();
        std::string json = text.str(), out;
        const std::regex baseline("\"baseline_s\": ([0-9.e+-]+)");
        std::smatch m;
        while (std::regex_search(json, m, baseline)) {
            out += m.prefix().str() + "\"baseline_s\": " + std::to_string(1000 * std::stod(m[1].str()));
            json = m.suffix().str();
        }
        out += json;
        std::ofstream f(g.gl_pathv[i], std::ios::trunc);
        if (f << out && f.flush()) std::fprintf(stderr, "poisoned %s\n", g.gl_pathv[i]);
    }
    globfree(&g);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static bool done = false;
    if (!done) {
        done = true;
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            poison();
        }
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
