// expect: AC
// Cheat on the sandbox, from a GPU problem: looks in /dev for anything but the GPU's device nodes and bubblewrap's
// minimal set (a disk, /dev/mem, a terminal of the host), for the repository's answers (problems/vector-add/solutions/), and tries to
// write beside the runner, before computing a correct sum on the GPU. If any of that works it aborts, so: must get AC
// under --sandbox, which binds the NVIDIA nodes and nothing else of the host's /dev.
// hpcjudge-test: args=--sandbox
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace fs = std::filesystem;

static void probe_the_walls() {
    const std::set<std::string> minimal = {"null", "zero", "full", "random", "urandom", "tty", "pts", "ptmx",
                                           "shm", "console", "fd", "stdin", "stdout", "stderr", "core", "mqueue"};
    for (const auto& e : fs::directory_iterator("/dev")) {
        const std::string name = e.path().filename().string();
        if (name.rfind("nvidia", 0) != 0 && !minimal.count(name)) {
            std::fprintf(stderr, "can see /dev/%s\n", name.c_str());
            std::abort();
        }
    }
    const fs::path runner_dir = fs::read_symlink("/proc/self/exe").parent_path();  // <repo>/build/judge
    const fs::path repo = runner_dir.parent_path().parent_path();
    if (fs::exists(repo / "problems/vector-add/solutions") && !fs::is_empty(repo / "problems/vector-add/solutions")) {
        std::fprintf(stderr, "can see %s\n", (repo / "problems/vector-add/solutions").c_str());
        std::abort();
    }
    std::ofstream f(runner_dir / "escaped.txt");
    if (f << "escaped" && f.flush()) {
        std::fprintf(stderr, "wrote beside the runner\n");
        std::abort();
    }
}

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static bool probed = false;
    if (!probed) probe_the_walls(), probed = true;
    if (N > 0) add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
