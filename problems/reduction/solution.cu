// reduction: your solution. The task, rules and scoring are in README.md.
#include <cuda_runtime.h>

// output[0] = input[0] + ... + input[N - 1].
__global__ void reduce_kernel(const float* input, float* output, int N) {
    // TODO: a sum over the whole array (see README.md). A first version:
    // 1. each block sums its part in shared memory (a tree: halve the active threads at every step),
    // 2. write one partial sum per block,
    // 3. sum the partials (the same kernel again, or one atomicAdd per block into a zeroed output[0]).
}

// input and output are device pointers; solve() runs on the host and launches kernels.
extern "C" void solve(const float* input, float* output, int N) {
    reduce_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
