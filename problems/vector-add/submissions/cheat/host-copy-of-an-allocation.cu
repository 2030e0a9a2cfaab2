// expect: RE
// The cheat: no kernel. A and B are copied into a cudaMalloc allocation with cudaMemcpy (device to device, as the
// API allows), then std::copy (a memmove in libstdc++) takes them from that allocation to the host, the host adds
// them, and std::copy puts the sums into C. Must get RE: the allocation and C are device memory, which host code and
// the library functions it calls cannot reach (on a GPU, SIGSEGV in the first std::copy; under CPU emulation the
// same fault, reported by the emulator).
// Honest twin: device-staging-with-kernel.cu.
// hpcjudge-test: message=SIGSEGV
#include <algorithm>
#include <vector>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t n = (size_t)N;
    float* d = nullptr;
    if (cudaMalloc(&d, 2 * n * sizeof(float)) != cudaSuccess) return;
    cudaMemcpy(d, A, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpy(d + n, B, n * sizeof(float), cudaMemcpyDeviceToDevice);
    std::vector<float> h(2 * n);
    std::copy(d, d + 2 * n, h.begin());
    for (size_t i = 0; i < n; ++i) h[i] += h[n + i];
    std::copy(h.begin(), h.begin() + N, C);
    cudaFree(d);
}
