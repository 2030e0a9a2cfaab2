// Multi-block softmax that computes exp(x) / sum(exp(x)) without subtracting the max (sum in double). Must get WA:
// right on inputs in [-5, 5], but expf overflows to inf for x > 88.7 (all-equal-large: inf / inf = NaN; [80, 100]:
// NaN and 0) and underflows to 0 for x in [-1000, -900] (0 / 0 = NaN).
// hpcjudge-test: message=test all-equal-large

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ double g_block_sum[kMaxBlocks];
__device__ double g_sum;

__global__ void pass1(const float* __restrict__ x, int N) {
    __shared__ double ws[kThreads / 32];
    double s = 0.0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
        s += (double)expf(x[i]);  // bug: no max subtracted
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double t = 0.0;
        for (int w = 0; w < kThreads / 32; ++w) t += ws[w];
        g_block_sum[blockIdx.x] = t;
    }
}

__global__ void combine(int nblocks) {  // one thread: at most 1024 partials
    double t = 0.0;
    for (int b = 0; b < nblocks; ++b) t += g_block_sum[b];
    g_sum = t;
}

__global__ void pass2(const float* __restrict__ x, float* __restrict__ y, int N) {
    const double s = g_sum;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
        y[i] = (float)((double)expf(x[i]) / s);
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    long long blocks = ((long long)N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    pass1<<<(int)blocks, kThreads>>>(input, N);
    combine<<<1, 1>>>((int)blocks);
    pass2<<<(int)blocks, kThreads>>>(input, output, N);
}
