// Correct C; the last block also writes how many elements it added into a word of mapped, pinned host memory
// that solve() allocates once (cudaHostAlloc) and keeps for every call, never freed, as rle-compress and
// rle-decompress return their count. Must get AC under --sanitize: memcheck's leak check lists that word, but it
// is the host's memory, not device memory leaked by solve(). Twin of RE/sanitize-leak.cu.
// hpcjudge-test: args=--sanitize
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N, volatile int* done) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *done = N;
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    static int* done = nullptr;
    if (!done && cudaHostAlloc(&done, sizeof(int), cudaHostAllocMapped) != cudaSuccess) return;
    if (N <= 0) return;
    add<<<(N + 255) / 256, 256>>>(A, B, C, N, done);
    cudaDeviceSynchronize();
    (void)*static_cast<volatile int*>(done);
}
