// expect: RE
// The cheat: no kernel, and device memory read and written through /proc/self/mem, which the kernel lets a process
// use on its own pages whatever their protection. A and B are read from it at the device pointers, the host adds
// them, and the sums are written to C through it. Must get RE. On a GPU the device pointers are no pages of the
// process: the reads fail, and the file falls back to std::memcpy on the device pointers, which faults. Under CPU
// emulation the same fallback faults (the emulator reports it) wherever /proc/self/mem cannot be opened, read or
// written at device memory (docs/design.md, "Emulator").
// Honest twin: device-staging-with-kernel.cu.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t bytes = sizeof(float) * (size_t)N;
    std::vector<float> a(N), b(N);
    const int mem = open("/proc/self/mem", O_RDWR);
    const auto at = [](const void* p) { return (off_t)reinterpret_cast<uintptr_t>(p); };
    if (mem < 0 || pread(mem, a.data(), bytes, at(A)) != (ssize_t)bytes) std::memcpy(a.data(), A, bytes);
    if (mem < 0 || pread(mem, b.data(), bytes, at(B)) != (ssize_t)bytes) std::memcpy(b.data(), B, bytes);
    for (int i = 0; i < N; ++i) a[i] += b[i];
    if (mem < 0 || pwrite(mem, a.data(), bytes, at(C)) != (ssize_t)bytes) std::memcpy(C, a.data(), bytes);
    if (mem >= 0) close(mem);
}
