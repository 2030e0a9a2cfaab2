// expect: RE
// The cheat: none of the exercise's repair, and no kernel at all. std::memcpy copies A and B from the device
// pointers to the host, the host multiplies them, and std::memcpy writes C. Must get RE: a device pointer cannot be
// dereferenced on the host, by the submission's code or by a library function it calls; on a GPU the first memcpy
// dies of SIGSEGV. Under CPU emulation device memory is inaccessible outside a kernel and the emulator's own copies,
// so the memcpy faults there too, and the emulator reports it (docs/design.md, "Emulator").
// Honest twin: staged-copies-with-kernel.cu.
// hpcjudge-test: message=SIGSEGV
#include <cstring>
#include <vector>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    std::vector<float> a((size_t)M * N), b((size_t)N * K), c((size_t)M * K, 0.0f);
    std::memcpy(a.data(), A, a.size() * sizeof(float));
    std::memcpy(b.data(), B, b.size() * sizeof(float));
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < N; ++k)
            for (int j = 0; j < K; ++j) c[(size_t)i * K + j] += a[(size_t)i * N + k] * b[(size_t)k * K + j];
    std::memcpy(C, c.data(), c.size() * sizeof(float));
}
