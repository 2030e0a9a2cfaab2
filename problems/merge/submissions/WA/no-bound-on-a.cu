// Merge path, each thread merging its own 8 outputs from its co-rank, whose merge step takes A[i] while
// A[i] <= B[j] without checking i < M: once A is used up it reads past the end of A. Must get WA (a-empty first):
// past an int32 input lies the judge's guard zone, -1515870811 as int32, below every key of those tests, so it is
// taken into C. Under CPU emulation it is RE: the emulator faults the read itself (tests/CMakeLists.txt,
// HPCJUDGE_EMULATION_EXCEPTIONS).
// hpcjudge-test: message=test a-empty:
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kItems = 8;

// The co-rank of k: how many of the first k outputs come from a, ties taken from a first.
__device__ long long co_rank(long long k, const int* a, long long m, const int* b, long long n) {
    long long lo = k - n > 0 ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        const long long i = (lo + hi) / 2;
        if (a[i] <= b[k - i - 1]) lo = i + 1;
        else hi = i;
    }
    return lo;
}

__global__ void merge_items(const int* A, long long m, const int* B, long long n, int* C) {
    const long long total = m + n, k0 = ((long long)blockIdx.x * kThreads + threadIdx.x) * kItems;
    if (k0 >= total) return;
    const long long k1 = k0 + kItems < total ? k0 + kItems : total;
    long long i = co_rank(k0, A, m, B, n), j = k0 - i;
    for (long long k = k0; k < k1; ++k) {
        if (j >= n || A[i] <= B[j]) C[k] = A[i++];  // bug: no i < m, so A[m] is read once A is used up
        else C[k] = B[j++];
    }
}

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;
    const long long per_block = (long long)kThreads * kItems;
    merge_items<<<(int)((total + per_block - 1) / per_block), kThreads>>>(A, M, B, N, C);
}
