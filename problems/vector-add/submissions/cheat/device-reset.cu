// expect: AC
// Cheat on the runner: computes C, then calls cudaDeviceReset() inside solve(), destroying its CUDA context (hoping
// to take the device buffers with it, so that the judge reads something it can be fooled by, or nothing at all). The
// buffers belong to the judge's own context, which the submission's reset does not touch: the judge reads the C the
// kernel wrote, which is right (AC), and every call pays for the context the runtime creates anew (about 0.23 s a call
// on the H200), so the reset gains nothing.
// hpcjudge-test: alone
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
