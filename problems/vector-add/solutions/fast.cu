// vector-add fast reference: each block owns one tile of kThreads x kPer consecutive float4s (no grid-stride loop,
// as many blocks as tiles), every thread loads all its float4s of A and B before it stores any (memory-level
// parallelism); a scalar tail for N % 4, and a scalar path if a pointer is not 16-byte aligned.
// Must get AC; sets the fast end of the score scale.
// Chosen on the H200 (n = 100M, one judge run each): this layout 300.5 us; with kPer = 4, 303.3 us; a grid-stride
// loop over 8 blocks per SM with 2 (4) float4s in flight, 322.5 (321.4) us; either with evict-first cache hints
// (__ldcs/__stcs), 330-342 us. At n32M (`judge bench`, device time) this layout, kPer = 4, and 512
// threads a block each took 0.107-0.108 ms, 88% of the copy bandwidth (the bar is 90%; Nsight Compute gives the
// kernel 91 us: the rest is the launch and its synchronise).
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kPer = 2;  // float4s of A and of B per thread

__global__ void __launch_bounds__(kThreads) add4(const float4* __restrict__ a, const float4* __restrict__ b,
                                                 float4* __restrict__ c, long long n4) {
    const long long base = (long long)blockIdx.x * (kThreads * kPer) + threadIdx.x;
    if (base + (kPer - 1) * kThreads < n4) {  // a full tile: no bounds checks
        float4 x[kPer], y[kPer];
#pragma unroll
        for (int u = 0; u < kPer; ++u) {
            x[u] = a[base + u * kThreads];
            y[u] = b[base + u * kThreads];
        }
#pragma unroll
        for (int u = 0; u < kPer; ++u)
            c[base + u * kThreads] = make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    } else {
        for (int u = 0; u < kPer; ++u) {
            const long long i = base + u * kThreads;
            if (i < n4) {
                const float4 x = a[i], y = b[i];
                c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
            }
        }
    }
}

// Scalar elements from `first` to N - 1: the N % 4 tail, or everything when the pointers are not 16-byte aligned.
__global__ void add1(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, long long first,
                     long long N) {
    for (long long j = first + (long long)blockIdx.x * kThreads + threadIdx.x; j < N; j += (long long)gridDim.x * kThreads)
        C[j] = A[j] + B[j];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const bool aligned = ((reinterpret_cast<uintptr_t>(A) | reinterpret_cast<uintptr_t>(B) |
                           reinterpret_cast<uintptr_t>(C)) & 15) == 0;
    const long long n4 = aligned ? (long long)N / 4 : 0;
    if (n4 > 0) {
        const long long tiles = (n4 + kThreads * kPer - 1) / (kThreads * kPer);
        add4<<<(unsigned)tiles, kThreads>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                            reinterpret_cast<float4*>(C), n4);
    }
    const long long rest = N - 4 * n4;
    if (rest > 0) {
        long long blocks = (rest + kThreads - 1) / kThreads;
        if (blocks > 65535) blocks = 65535;
        add1<<<(unsigned)blocks, kThreads>>>(A, B, C, 4 * n4, N);
    }
}
