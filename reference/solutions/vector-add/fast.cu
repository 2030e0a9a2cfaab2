// vector-add fast reference: float4 loads/stores in a grid-stride loop, several independent float4s in flight per
// thread, grid sized to fill every SM, scalar tail for N % 4 (and a scalar path if a pointer is not 16-byte aligned).
// Must get AC; sets the fast end of the score scale.
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kUnroll = 2;       // float4s of A and of B loaded per thread before any is used (memory-level parallelism)
constexpr int kBlocksPerSM = 8;  // 8 x 256 threads = 2048, the most resident threads per SM

__global__ void __launch_bounds__(kThreads) add4(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, long long n4, long long N) {
    const float4* a = reinterpret_cast<const float4*>(A);
    const float4* b = reinterpret_cast<const float4*>(B);
    float4* c = reinterpret_cast<float4*>(C);
    const long long tid = (long long)blockIdx.x * kThreads + threadIdx.x;
    const long long stride = (long long)gridDim.x * kThreads;
    long long i = tid;
    for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
        float4 x[kUnroll], y[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            x[u] = a[i + u * stride];
            y[u] = b[i + u * stride];
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u)
            c[i + u * stride] = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    }
    for (; i < n4; i += stride) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    // Scalar elements 4 * n4 .. N - 1: the N % 4 tail, or everything when n4 = 0 (unaligned pointers).
    for (long long j = 4 * n4 + tid; j < N; j += stride) C[j] = A[j] + B[j];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 1;
    }
    const bool aligned = ((reinterpret_cast<uintptr_t>(A) | reinterpret_cast<uintptr_t>(B) |
                           reinterpret_cast<uintptr_t>(C)) & 15) == 0;
    const long long n4 = aligned ? (long long)N / 4 : 0;
    const long long work = n4 > 0 ? n4 : (long long)N;  // items for the grid to cover
    long long blocks = (work + kThreads - 1) / kThreads;
    const long long full = (long long)kBlocksPerSM * sms;
    if (blocks > full) blocks = full;
    if (blocks < 1) blocks = 1;
    add4<<<(int)blocks, kThreads>>>(A, B, C, n4, N);
}
