// prefix-sum: your solution. The task, rules and scoring are in README.md.
#include <cuda_runtime.h>

// output[i] = input[0] + ... + input[i].
__global__ void scan_kernel(const int* input, int* output, int N) {
    // TODO: an inclusive scan (see README.md). A first version:
    // 1. each block scans its part in shared memory (Kogge-Stone: log2(B) steps, each one a read,
    //    a barrier, a write and a barrier; or Brent-Kung: an up-sweep and a down-sweep),
    // 2. scan the block totals (the same kernel, recursively),
    // 3. add the total of the blocks before it to every element of each block (the fix-up pass).
}

// input and output are device pointers; solve() runs on the host and launches kernels.
extern "C" void solve(const int* input, int* output, int N) {
    scan_kernel<<<(N + 1023) / 1024, 1024>>>(input, output, N);
}
