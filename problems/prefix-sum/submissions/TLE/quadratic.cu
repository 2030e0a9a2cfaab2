// Every output element sums its own prefix: thread i reads input[0 .. i], O(N^2) work (2^55 additions at
// N = 2^28). Right, but far too slow: must get TLE (a call past 5 s, or 30 s of functional tests in all).
// hpcjudge-test: message-matches=did not return within|functional tests took
#include <cuda_runtime.h>

__global__ void prefix_each(const int* in, int* out, int n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (long long j = 0; j <= i; ++j) s += in[j];
    out[i] = s;
}

extern "C" void solve(const int* input, int* output, int N) {
    prefix_each<<<(N + 255) / 256, 256>>>(input, output, N);
}
