// expect: RE
// The cheat: no kernel, and device memory made host memory by hand. mprotect() asks for read and write on the pages
// of A, B and C, std::memcpy takes A and B to the host, the host adds them, std::memcpy writes the sums into C. Must
// get RE. On a GPU the device pointers are no host memory: mprotect fails (or opens pages that are not the device's)
// and the memcpy faults, or the sums never reach the device, which the check at the end catches (a trap: the file
// crashes wherever its cheat did not work). Under CPU emulation a call that changes the protection or the mapping of
// device memory from any code but the emulator's own kills the process (SIGSYS; docs/design.md, "Emulator").
// Honest twin: device-staging-with-kernel.cu.
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

static void open_pages(const void* p, size_t bytes) {
    const uintptr_t page = 4096, at = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) & ~(page - 1);
    (void)mprotect(reinterpret_cast<void*>(at), end - at, PROT_READ | PROT_WRITE);  // goes on if refused
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t bytes = sizeof(float) * (size_t)N;
    open_pages(A, bytes);
    open_pages(B, bytes);
    open_pages(C, bytes);
    std::vector<float> a(N), b(N);
    std::memcpy(a.data(), A, bytes);
    std::memcpy(b.data(), B, bytes);
    for (int i = 0; i < N; ++i) a[i] += b[i];
    std::memcpy(C, a.data(), bytes);
    float last = 0.0f;
    cudaMemcpy(&last, C + (N - 1), sizeof last, cudaMemcpyDeviceToHost);
    if (std::memcmp(&last, &a[N - 1], sizeof last) != 0) __builtin_trap();
}
