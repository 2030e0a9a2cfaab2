// Vectorised matmul written for K % 4 == 0: B and C are viewed as float4 arrays with K / 4 vectors per row, and each
// thread computes one float4 of C. Must get WA: when K % 4 != 0 the row stride K / 4 is wrong (rows are read shifted)
// and the last K % 4 columns of C are never written (NaN sentinel left). Every float4 index stays below
// N * (K / 4) for B and M * (K / 4) for C, so it never touches memory past the buffers (no RE), and the float4
// pointers are the buffers' own aligned starts (no misaligned access).

__global__ void matmul4(const float* __restrict__ A, const float4* __restrict__ B4, float4* __restrict__ C4, int M,
                        int N, int K4) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int q = blockIdx.x * blockDim.x + threadIdx.x;  // float4 column index
    if (row >= M || q >= K4) return;                      // bug: bounds only on whole float4s
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int n = 0; n < N; ++n) {
        const float a = A[(long long)row * N + n];
        const float4 b = B4[(long long)n * K4 + q];  // bug: the row stride is K floats, not K4 float4s
        acc.x += a * b.x;
        acc.y += a * b.y;
        acc.z += a * b.z;
        acc.w += a * b.w;
    }
    C4[(long long)row * K4 + q] = acc;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    const int K4 = K / 4;  // assumes K % 4 == 0
    const dim3 block(16, 16);
    const dim3 grid(K4 > 0 ? (K4 + 15) / 16 : 1, (M + 15) / 16);  // at least one block: a 0-block grid would be RE
    matmul4<<<grid, block>>>(A, reinterpret_cast<const float4*>(B), reinterpret_cast<float4*>(C), M, N, K4);
}
