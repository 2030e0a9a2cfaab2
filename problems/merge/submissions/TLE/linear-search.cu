// One thread per input element, its rank in the other array counted by a linear scan: O(M * N) reads (2^54 for
// the largest test). Right, and far too slow: must get TLE.
// hpcjudge-test: message-matches=did not return within|functional tests took
#include <cuda_runtime.h>

__global__ void scatter(const int* A, long long M, const int* B, long long N, int* C) {
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < M) {
        long long r = 0;
        for (long long j = 0; j < N; ++j) r += B[j] < A[k];
        C[k + r] = A[k];
    } else if (k < M + N) {
        long long r = 0;
        for (long long i = 0; i < M; ++i) r += A[i] <= B[k - M];
        C[(k - M) + r] = B[k - M];
    }
}

extern "C" void solve(const int* A, int M, const int* B, int N, int* C) {
    const long long total = (long long)M + N;
    if (total == 0) return;
    scatter<<<(unsigned)((total + 255) / 256), 256>>>(A, M, B, N, C);
}
