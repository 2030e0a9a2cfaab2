// expect: AC
// Cheat: would keep every answer it computes, keyed on N and a hash of 16 sampled elements of A and B (copied to the
// host), and replay it whenever that key comes back: a cache no pointer check can see. So that the test proves the
// cache never pays, a hit aborts (RE) instead of replaying. Must get AC with the performance cases timed: every call,
// warm-up and timed runs included, gets fresh inputs, so no key ever comes back.
// hpcjudge-test: bench
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static std::set<uint64_t> seen;
    uint64_t key = 1469598103934665603ull ^ static_cast<uint64_t>(N);
    for (int s = 0; s < 16 && N > 0; ++s) {
        const long long at = static_cast<long long>(s) * N / 16;
        float a, b;
        cudaMemcpy(&a, A + at, sizeof a, cudaMemcpyDeviceToHost);
        cudaMemcpy(&b, B + at, sizeof b, cudaMemcpyDeviceToHost);
        uint32_t bits[2];
        std::memcpy(&bits[0], &a, 4);
        std::memcpy(&bits[1], &b, 4);
        key = ((key ^ bits[0]) * 1099511628211ull ^ bits[1]) * 1099511628211ull;
    }
    if (!seen.insert(key).second) std::abort();  // the judge repeated an input set: a replay would have paid
    if (N > 0) add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
