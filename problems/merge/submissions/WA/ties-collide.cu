// One thread per input element, as AC/rank-by-binary-search.cu, but with the lower bound on both sides: an element
// of A and an equal element of B get the same place in C, one overwrites the other, and the last slot of each
// run of ties is never written. Right when A and B share no key; must get WA (all-duplicates, and wherever keys
// tie).
#include <cuda_runtime.h>

// The number of elements of x[0 .. n) below v (lower bound), or at most v (upper bound).
__device__ long long rank_of(int v, const int* x, long long n, bool upper) {
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (x[mid] < v || (upper && x[mid] == v)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Element i of A goes after the elements of B below it; element j of B after the elements of A at most it, so a
// tie is A's first and every output position gets exactly one element.
__global__ void scatter(const int* A, long long M, const int* B, long long N, int* C) {
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < M) C[k + rank_of(A[k], B, N, false)] = A[k];
    else if (k < M + N) C[(k - M) + rank_of(B[k - M], A, M, false  /* should be true: ties from A first */)] = B[k - M];
}

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;
    scatter<<<(unsigned)((total + 255) / 256), 256>>>(A, M, B, N, C);
}
