// Correct C, but each thread also reads A[i + 1], so the last thread reads one element past A. Its result is
// unused for i = N - 1... and the value read lands in the judge's guard zone, so the output is right.
// Must get RE under --sanitize: memcheck sees the out-of-bounds read (each buffer is its own allocation there).
// hpcjudge-test: args=--sanitize
// hpcjudge-test: message=memcheck:
__global__ void add_peek(const float* A, const float* B, float* C, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float next = A[i + 1];  // one past the end for i = N - 1
        C[i] = A[i] + B[i] + (next == 12345.678f ? 1.0f : 0.0f);
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    add_peek<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
