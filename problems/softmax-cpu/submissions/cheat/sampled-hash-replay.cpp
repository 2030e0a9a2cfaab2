// expect: AC
// Cheat: keeps every answer it computes, keyed on N and a hash of 16 sampled inputs, to replay it whenever that key
// comes back (a replay cache no pointer check can see). Here, so that the test proves the cache never pays, a hit
// aborts (RE) instead of replaying. Must get AC with the performance cases timed: every call, warm-up and timed runs
// included, gets fresh inputs, so no key ever comes back (with two input sets alternated, the third call would hit).
// hpcjudge-test: bench
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>

extern "C" void solve(const float* input, float* output, int N) {
    static std::set<uint64_t> seen;
    uint64_t key = 1469598103934665603ull ^ static_cast<uint64_t>(N);
    for (int s = 0; s < 16; ++s) {
        uint32_t bits;
        std::memcpy(&bits, &input[static_cast<int64_t>(s) * N / 16], 4);
        key = (key ^ bits) * 1099511628211ull;
    }
    if (!seen.insert(key).second) std::abort();  // the judge repeated an input set: a replay would have paid
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
