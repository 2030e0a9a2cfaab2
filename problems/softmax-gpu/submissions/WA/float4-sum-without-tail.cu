// Multi-block softmax whose sum of exp(x - max) loads float4 vectors, ceil(N / 4) of them with no scalar tail: for N
// not a multiple of 4 it reads up to three floats past the input. Must get WA (N = 1, 2, 3, 5, ...): past a float
// input lies the judge's guard zone, a NaN, so the sum and every output are NaN. Under CPU emulation it is RE: the
// emulator faults the read itself (tests/CMakeLists.txt, HPCJUDGE_EMULATION_EXCEPTIONS).
// hpcjudge-test: message=test n1:
// hpcjudge-test: message-matches=got -?nan

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ float g_block_max[kMaxBlocks];
__device__ double g_block_sum[kMaxBlocks];
__device__ float g_max;
__device__ double g_sum;

__global__ void block_max(const float* __restrict__ x, int N) {
    __shared__ float ws[kThreads / 32];
    float m = -INFINITY;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
        m = fmaxf(m, x[i]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < kThreads / 32; ++w) m = fmaxf(m, ws[w]);
        g_block_max[blockIdx.x] = m;
    }
}

__global__ void combine_max(int nblocks) {  // one thread: at most 1024 partials
    float m = -INFINITY;
    for (int b = 0; b < nblocks; ++b) m = fmaxf(m, g_block_max[b]);
    g_max = m;
}

__global__ void block_sum(const float4* __restrict__ x4, long long vectors) {
    __shared__ double ws[kThreads / 32];
    const float m = g_max;
    double s = 0.0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < vectors; i += (long long)gridDim.x * blockDim.x) {
        const float4 v = x4[i];  // bug: the last vector runs past the input when N % 4 != 0
        s += (double)expf(v.x - m) + (double)expf(v.y - m) + (double)expf(v.z - m) + (double)expf(v.w - m);
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double t = 0.0;
        for (int w = 0; w < kThreads / 32; ++w) t += ws[w];
        g_block_sum[blockIdx.x] = t;
    }
}

__global__ void combine_sum(int nblocks) {
    double t = 0.0;
    for (int b = 0; b < nblocks; ++b) t += g_block_sum[b];
    g_sum = t;
}

__global__ void normalise(const float* __restrict__ x, float* __restrict__ y, int N) {
    const float m = g_max;
    const double s = g_sum;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += (long long)gridDim.x * blockDim.x)
        y[i] = (float)((double)expf(x[i] - m) / s);
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    const long long vectors = ((long long)N + 3) / 4;  // ceil(N / 4): the whole input, and up to 3 floats more
    long long blocks = ((long long)N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    block_max<<<(int)blocks, kThreads>>>(input, N);
    combine_max<<<1, 1>>>((int)blocks);
    block_sum<<<(int)blocks, kThreads>>>(reinterpret_cast<const float4*>(input), vectors);
    combine_sum<<<1, 1>>>((int)blocks);
    normalise<<<(int)blocks, kThreads>>>(input, output, N);
}
