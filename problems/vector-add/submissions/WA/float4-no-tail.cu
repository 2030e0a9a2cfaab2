// Vector add over N / 4 float4 vectors that forgets the N % 4 tail. Must get WA: for N not a multiple of 4 the last
// elements keep the judge's NaN sentinel (N = 1, 2, 3 write nothing; the grid is kept >= 1 block so it is not RE).

__global__ void add4(const float4* __restrict__ A, const float4* __restrict__ B, float4* __restrict__ C, int n4) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        const float4 x = A[i], y = B[i];
        C[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    const int n4 = N / 4;  // bug: the N % 4 leftover elements are never handled
    const int threads = 256;
    int blocks = (n4 + threads - 1) / threads;
    if (blocks < 1) blocks = 1;
    add4<<<blocks, threads>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                              reinterpret_cast<float4*>(C), n4);
}
