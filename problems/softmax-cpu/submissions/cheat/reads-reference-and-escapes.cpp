// expect: AC
// Cheat on the sandbox: tries to read the repository's answers and verdicts (the problem's solutions/ and
// submissions/, problems/families/, tests/), write a
// file outside its private /tmp and see a network interface, before computing a correct softmax. If any of that works
// it aborts, so: must get AC under --sandbox (everything refused), and would get RE without it.
// hpcjudge-test: args=--sandbox
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

static void escape_attempts() {
    namespace fs = std::filesystem;
    // The runner is <repo>/build/judge/hpcjudge-runner: the repository is three levels up.
    const fs::path runner_dir = fs::read_symlink("/proc/self/exe").parent_path();
    const fs::path repo = runner_dir.parent_path().parent_path();
    // 1. Writing outside the private /tmp: beside the runner, and in /var/tmp.
    for (const fs::path p : {runner_dir / "escaped.txt", fs::path("/var/tmp/hpcjudge-escaped.txt")}) {
        std::ofstream f(p);
        if (f << "escaped" && f.flush()) {
            f.close();
            fs::remove(p);
            std::fprintf(stderr, "wrote %s\n", p.c_str());
            std::abort();
        }
    }
    // 2. Reading the references and the tests.
    for (const char* d : {"problems/softmax-cpu/solutions", "problems/softmax-cpu/submissions", "problems/families", "tests"})
        if (fs::exists(repo / d) && !fs::is_empty(repo / d)) {
            std::fprintf(stderr, "can see %s\n", (repo / d).c_str());
            std::abort();
        }
    // 3. The network: a fresh network namespace has nothing but its own loopback.
    std::ifstream dev("/proc/net/dev");
    std::string line;
    while (std::getline(dev, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        name.erase(0, name.find_first_not_of(' '));
        if (name != "lo") {
            std::fprintf(stderr, "network interface %s\n", name.c_str());
            std::abort();
        }
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    static bool tried = false;
    if (!tried) escape_attempts(), tried = true;
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::max(m, input[i]);
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
