// A correct vector-add that, on its first call (its GPU context made, its kernel not yet launched), writes a file in
// its own temporary folder ($TMPDIR), which it may, and tries one in /tmp and one in the judge's cache
// ($HPCJUDGE_CACHE), which a runner confined by the kernel may not (runner/confine.h), and says on stderr what it
// could write (tests/cli/same_user_gpu_test.sh): the GPU twin of writes-files.cpp.
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

__global__ void add(const float* A, const float* B, float* C, int N) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) C[i] = A[i] + B[i];
}
}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
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
    if (N > 0) add<<<1024, 256>>>(A, B, C, N);
}
