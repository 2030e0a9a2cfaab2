// expect: RE
// Correct C, but a second kernel const_casts A and overwrites A[0] (using the input as scratch). Must get RE: the judge
// checks every input unchanged after solve. A[0] is set to a value different from the one it had, so it always changes.
// hpcjudge-test: message=input modified

__global__ void add(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

__global__ void scribble(float* A) {
    A[0] = (A[0] == 0.0f) ? 1.0f : 0.0f;  // bug: writes an input buffer
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    const int threads = 256;
    const int blocks = (int)(((long long)N + threads - 1) / threads);
    add<<<blocks, threads>>>(A, B, C, N);
    scribble<<<1, 1>>>(const_cast<float*>(A));  // runs after add on the same stream, so C is already right
}
