// Vector add whose grid is N / 256 blocks, not rounded up. Must get RE: for N < 256 the grid has 0 blocks and the
// launch fails (cudaErrorInvalidConfiguration or, on CUDA 13, cudaErrorInvalidValue), which the judge's cudaGetLastError() must see (shared runtime).
// (For N >= 256 the tail is also left unwritten, but RE outranks WA.)
// hpcjudge-test: message=(a kernel launch failed) during solve()

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    const int threads = 256;
    const int blocks = N / threads;  // bug: should round up; 0 when N < 256
    add<<<blocks, threads>>>(A, B, C, N);  // the launch error is not checked here
}
