// expect: RE
// The cheat: no kernel, and no memcpy of its own either. fwrite() puts A and B into an in-memory stdio stream
// (open_memstream), the host multiplies the stream's copy, and fread() from a stream over the product (fmemopen)
// fills C: the C library reads and writes the device pointers. Must get RE: host code cannot reach device memory,
// the C library's included (on a GPU, SIGSEGV in the first fwrite; under CPU emulation the same fault, reported by
// the emulator).
// Honest twin: staged-copies-with-kernel.cu.
// hpcjudge-test: message=SIGSEGV
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    char* staged = nullptr;
    size_t size = 0;
    FILE* in = open_memstream(&staged, &size);
    if (!in) return;
    std::fwrite(A, sizeof(float), (size_t)M * N, in);
    std::fwrite(B, sizeof(float), (size_t)N * K, in);
    std::fclose(in);
    const float* a = reinterpret_cast<const float*>(staged);
    const float* b = a + (size_t)M * N;
    std::vector<float> c((size_t)M * K, 0.0f);
    if (size >= sizeof(float) * ((size_t)M * N + (size_t)N * K))
        for (int i = 0; i < M; ++i)
            for (int k = 0; k < N; ++k)
                for (int j = 0; j < K; ++j) c[(size_t)i * K + j] += a[(size_t)i * N + k] * b[(size_t)k * K + j];
    std::free(staged);
    FILE* out = fmemopen(c.data(), c.size() * sizeof(float), "r");
    if (!out) return;
    std::fread(C, sizeof(float), c.size(), out);
    std::fclose(out);
}
