// solve takes a non-const float* A. Must get CE: conflicts with the force-included header's extern "C" declaration.
// hpcjudge-test: message=does not match the expected signature

__global__ void add(float* A, const float* B, float* C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
