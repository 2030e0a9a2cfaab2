// expect: RE
// The cheat: none of the exercise's repair, no kernel, and device memory moved into reach. mremap with an old size
// of 0 maps the pages under A, B and C a second time at an address of its own (a shared mapping duplicates that
// way), mprotect opens the copies, the host multiplies there and writes C through its copy. Must get RE. On a GPU
// the device pointers are no pages of the process: mremap fails, and the file falls back to std::memcpy on the
// device pointers, which faults. Under CPU emulation a call that maps, moves or protects device memory from any
// code but the emulator's own kills the process (SIGSYS; docs/design.md, "Emulator").
// Honest twin: staged-copies-with-kernel.cu.
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// The pages under [p, p + bytes) mapped again and opened, at `p`'s place in them; null where that fails.
unsigned char* again(const void* p, size_t bytes) {
    const uintptr_t page = 4096, at = reinterpret_cast<uintptr_t>(p), start = at & ~(page - 1);
    const size_t span = (at + bytes - start + page - 1) & ~(page - 1);
    void* copy = mremap(reinterpret_cast<void*>(start), 0, span, MREMAP_MAYMOVE);
    if (copy == MAP_FAILED || mprotect(copy, span, PROT_READ | PROT_WRITE) != 0) return nullptr;
    return static_cast<unsigned char*>(copy) + (at - start);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    std::vector<float> a((size_t)M * N), b((size_t)N * K), c((size_t)M * K, 0.0f);
    const unsigned char* pa = again(A, a.size() * sizeof(float));
    const unsigned char* pb = again(B, b.size() * sizeof(float));
    unsigned char* pc = again(C, c.size() * sizeof(float));
    std::memcpy(a.data(), pa ? pa : reinterpret_cast<const unsigned char*>(A), a.size() * sizeof(float));
    std::memcpy(b.data(), pb ? pb : reinterpret_cast<const unsigned char*>(B), b.size() * sizeof(float));
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < N; ++k)
            for (int j = 0; j < K; ++j) c[(size_t)i * K + j] += a[(size_t)i * N + k] * b[(size_t)k * K + j];
    std::memcpy(pc ? pc : reinterpret_cast<unsigned char*>(C), c.data(), c.size() * sizeof(float));
}
