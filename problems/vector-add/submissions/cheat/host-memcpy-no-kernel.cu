// expect: RE
// The cheat: no kernel at all. std::memcpy copies A and B from the device pointers into host vectors, the host adds
// them, and std::memcpy writes the sums into C. Must get RE: a device pointer cannot be dereferenced on the host, by
// the submission's own code or by a library function it calls; on a GPU the first memcpy dies of SIGSEGV. Under CPU
// emulation device memory is inaccessible outside a kernel and the emulator's own copies, so the memcpy faults there
// too, and the emulator reports it (docs/design.md, "Emulator").
// Honest twin: device-staging-with-kernel.cu.
// hpcjudge-test: message=SIGSEGV
#include <cstring>
#include <vector>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t bytes = sizeof(float) * (size_t)N;
    std::vector<float> a(N), b(N);
    std::memcpy(a.data(), A, bytes);
    std::memcpy(b.data(), B, bytes);
    for (int i = 0; i < N; ++i) a[i] += b[i];
    std::memcpy(C, a.data(), bytes);
}
