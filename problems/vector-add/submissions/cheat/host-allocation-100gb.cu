// expect: MLE
// Cheat on the machine, from a GPU problem: asks for a 100 GB host scratch buffer. Must get MLE: a GPU submission's
// private writable host memory (heap and anonymous maps, RLIMIT_DATA) is limited to its buffers twice over plus
// 4 GiB, so the allocation fails (std::bad_alloc) instead of swapping the judging machine to death. (Its address
// space is not limited: the CUDA driver reserves far more of it than it uses.)
// hpcjudge-test: message=ran out of memory
#include <vector>

__global__ void add(const float* A, const float* B, float* C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    std::vector<char> scratch(size_t{100'000'000'000});  // 100 GB, zero-filled
    if (N > 0) add<<<(N + 255) / 256, 256>>>(A, B, C, N + scratch[N % scratch.size()]);
}
