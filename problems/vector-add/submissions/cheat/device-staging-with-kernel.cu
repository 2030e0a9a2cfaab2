// expect: AC
// The honest twin of host-memcpy-no-kernel.cu and host-copy-of-an-allocation.cu: the same staging, done the way
// CUDA allows. A and B go into a cudaMalloc allocation by cudaMemcpy (cudaMemcpyDefault, which infers the
// direction), a kernel adds them into managed memory, which the host may read and write (it checks a sum and
// scales nothing), and cudaMemcpy (host to device) takes the sums into C. Must get AC, under CPU emulation too:
// the emulator's own copies and kernels reach device memory, and managed memory stays host-accessible.
#include <cstring>

__global__ void add(const float* staged, float* out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = staged[i] + staged[n + i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const size_t n = (size_t)N;
    float *d = nullptr, *m = nullptr;
    if (cudaMalloc(&d, 2 * n * sizeof(float)) != cudaSuccess) return;
    if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess) return;
    cudaMemcpy(d, A, n * sizeof(float), cudaMemcpyDefault);
    cudaMemcpy(d + n, B, n * sizeof(float), cudaMemcpyDefault);
    add<<<(unsigned)((n + 255) / 256), 256>>>(d, m, (long long)n);
    cudaDeviceSynchronize();
    float first = 0.0f;
    std::memcpy(&first, m, sizeof first);  // managed memory: the host may read it
    m[0] = first;
    cudaMemcpy(C, m, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaFree(d);
    cudaFree(m);
}
