// expect: WA
// The cheat: computes C once, keeps a device copy keyed on (A, B, C, N), and on a later call with the same pointers
// just copies the cached copy into C. Must get WA: the last functional test runs again with new inputs in the same
// buffers (and every timed run gets fresh inputs), so the repeat gets the first inputs' answer.
// hpcjudge-test: message=(new inputs)

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static const float* lastA = nullptr;
    static const float* lastB = nullptr;
    static float* lastC = nullptr;
    static int lastN = 0;
    static float* cache = nullptr;  // device copy of the last computed C
    static size_t cacheCount = 0;
    const size_t bytes = (size_t)N * sizeof(float);
    if (A == lastA && B == lastB && C == lastC && N == lastN) {
        cudaMemcpy(C, cache, bytes, cudaMemcpyDeviceToDevice);  // bug: assumes the inputs did not change
        return;
    }
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);
    add<<<blocks, threads>>>(A, B, C, N);
    if (cacheCount < (size_t)N) {
        cudaFree(cache);
        cache = nullptr;
        cacheCount = 0;
        if (cudaMalloc(&cache, bytes) != cudaSuccess) return;  // no cache this time
        cacheCount = (size_t)N;
    }
    cudaMemcpy(cache, C, bytes, cudaMemcpyDeviceToDevice);  // ordered after the kernel on the default stream
    lastA = A;
    lastB = B;
    lastC = C;
    lastN = N;
}
