// Merge path whose co-rank search starts from the wrong upper bound: min(k, m) - 1 instead of min(k, m), so a
// diagonal can never take all of A's elements before it. Right wherever some element of B precedes the last
// element of A that the diagonal covers; must get WA (a-before-b, and any tile whose first k outputs are all from A).
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;

// The co-rank of k: how many of the first k outputs come from a, ties taken from a first.
__device__ long long co_rank(long long k, const int* a, long long m, const int* b, long long n) {
    long long lo = k - n > 0 ? k - n : 0, hi = (k < m ? k : m) - 1  /* one short */;
    while (lo < hi) {
        const long long i = (lo + hi + 1) / 2;
        if (a[i - 1] <= b[k - i]) lo = i;
        else hi = i - 1;
    }
    return lo;
}

// A block per tile of kTile outputs: its bounds on the merge path, its part of A and B in shared memory, then each
// thread merges kItems outputs from its own co-rank inside the tile.
__global__ void merge_tiles(const int* A, long long M, const int* B, long long N, int* C) {
    __shared__ int s[kTile];
    __shared__ long long a0, a1;
    const long long k0 = (long long)blockIdx.x * kTile, total = M + N;
    const long long k1 = k0 + kTile < total ? k0 + kTile : total;
    if (threadIdx.x == 0) a0 = co_rank(k0, A, M, B, N);
    if (threadIdx.x == 1) a1 = co_rank(k1, A, M, B, N);
    __syncthreads();
    const int len = (int)(k1 - k0), a_len = (int)(a1 - a0), b_len = len - a_len;
    const long long b0 = k0 - a0;
    for (int i = threadIdx.x; i < len; i += kThreads) s[i] = i < a_len ? A[a0 + i] : B[b0 + i - a_len];
    __syncthreads();
    const int d = threadIdx.x * kItems;
    if (d >= len) return;
    long long i = co_rank(d, s, a_len, s + a_len, b_len), j = d - i;
    for (int q = 0; q < kItems && d + q < len; ++q) {
        const bool take_a = j >= b_len || (i < a_len && s[i] <= s[a_len + j]);
        C[k0 + d + q] = take_a ? s[i++] : s[a_len + j++];
    }
}

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;
    merge_tiles<<<(unsigned)((total + kTile - 1) / kTile), kThreads>>>(A, M, B, N, C);
}
