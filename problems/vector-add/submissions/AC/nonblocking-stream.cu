// Vector add launched on a non-blocking stream (created once, kept in a static) and NOT synchronised before returning.
// Must get AC: the judge synchronises the whole device after solve, and its timing covers work on any stream.
// hpcjudge-test: bench

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static cudaStream_t stream = nullptr;  // does not synchronise with the legacy default stream
    if (stream == nullptr) cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);
    add<<<blocks, threads, 0, stream>>>(A, B, C, N);
    // No cudaStreamSynchronize: returns while the kernel may still be running.
}
