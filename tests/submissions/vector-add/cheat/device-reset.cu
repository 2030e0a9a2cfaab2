// expect: RE
// Cheat on the runner: computes C, then calls cudaDeviceReset() inside solve(), destroying the context and with it the
// judge's device buffers (hoping the judge then reads something it can be fooled by, or nothing at all). Must get RE:
// the runner cannot copy the outputs back from a reset device, and says so.
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    add<<<(N + 255) / 256, 256>>>(A, B, C, N);
    cudaDeviceSynchronize();
    cudaDeviceReset();
}
