// expect: NO-GAIN over ../AC/float4-grid-stride.cu
// Forgery by poisoning the judge's cache, on a GPU: the twin of softmax-cpu's poisons-the-cache.cpp. On its first
// call this file rewrites every vector-add scale file in the judge's cache (scale-vector-add-<machine>.json) with
// each case's "baseline_s" times 1000, so that every later grade on the machine is scored against a baseline 1000
// times slower, and says so on stderr ("poisoned ..."). Where the judge and its runners run as one ordinary user
// without the sandbox, the cache is that user's; the runner confines itself before it loads a file, its GPU
// context made (runner/confine.h, Landlock): nothing outside its temporary folders may be
// written, so the file is left as it was (tests/cli/same_user_gpu_test.sh). As root (this file's test in the
// submissions' list) the runner is a user of its own, which may not write there.
// Otherwise the grid-stride float4 add of its twin.
#include <glob.h>
#include <unistd.h>

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
    if (glob((cache_folder() + "/scale-vector-add-*.json").c_str(), 0, nullptr, &g) != 0) return;
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

__global__ void add4(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, long long N) {
    const long long n4 = N / 4;
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const float4* a = reinterpret_cast<const float4*>(A);
    const float4* b = reinterpret_cast<const float4*>(B);
    float4* c = reinterpret_cast<float4*>(C);
    for (long long i = tid; i < n4; i += stride) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    const long long t = n4 * 4 + tid;
    if (t < N) C[t] = A[t] + B[t];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static bool done = false;
    if (!done) {
        done = true;
        poison();
    }
    if (N <= 0) return;
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 1;
    }
    const int threads = 256;
    long long blocks = ((long long)N / 4 + threads - 1) / threads;
    if (blocks > 8LL * sms) blocks = 8LL * sms;
    if (blocks < 1) blocks = 1;
    add4<<<(int)blocks, threads>>>(A, B, C, N);
}
