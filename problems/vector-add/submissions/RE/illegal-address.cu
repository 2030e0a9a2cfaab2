// Vector add in which one thread also stores through a wild device pointer, C + 2^40 elements (4 TiB past C: unmapped).
// Must get RE: the kernel faults with cudaErrorIllegalAddress, a sticky error the judge sees when it synchronises.
// hpcjudge-test: message=cudaErrorIllegalAddress

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
    if (i == 0) {
        volatile float* wild = C + (1LL << 40);  // bug: a pointer far outside any allocation
        *wild = 1.0f;
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);
    add<<<blocks, threads>>>(A, B, C, N);
}
