// merge baseline reference: one thread per output element with a binary search, as a first version looks. Must get
// AC; sets the slow end of the score scale.
//   Thread k finds the co-rank of k: the number i of elements of A among the first k of the merge (ties taken from A
//   first), the largest i in [max(0, k - N), min(k, M)] with A[i - 1] <= B[k - i], by binary search in global memory.
//   C[k] is then the smaller of A[i] and B[k - i] (A on a tie). About log2(min(M, N)) dependent global reads per
//   output element.
#include <cuda_runtime.h>

__device__ long long co_rank(long long k, const int* A, long long M, const int* B, long long N) {
    long long lo = k - N > 0 ? k - N : 0, hi = k < M ? k : M;
    while (lo < hi) {
        const long long i = (lo + hi + 1) / 2;
        if (A[i - 1] <= B[k - i]) lo = i;
        else hi = i - 1;
    }
    return lo;
}

__global__ void merge_each(const int* A, long long M, const int* B, long long N, int* C) {
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= M + N) return;
    const long long i = co_rank(k, A, M, B, N), j = k - i;
    C[k] = (i < M && (j >= N || A[i] <= B[j])) ? A[i] : B[j];
}

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;  // nothing to write, and a grid of zero blocks would be an error
    merge_each<<<(unsigned)((total + 255) / 256), 256>>>(A, M, B, N, C);
}
