// Correct C, computed through a scratch buffer that solve() allocates on every call and never frees.
// Must get RE under --sanitize: memcheck's leak check reports the device memory allocated inside solve() (on a
// GPU the message names the leak and, where the tool's backtrace names it, its allocator: "(cudaMalloc, never
// freed)"). Twin of AC/sanitize-pinned-host-word.cu.
// hpcjudge-test: args=--sanitize
// hpcjudge-test: message=memcheck:
__global__ void add(const float* A, const float* B, float* T, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) T[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    float* scratch = nullptr;
    cudaMalloc(&scratch, sizeof(float) * N);  // never freed
    add<<<(N + 255) / 256, 256>>>(A, B, scratch, N);
    cudaMemcpy(C, scratch, sizeof(float) * N, cudaMemcpyDeviceToDevice);
}
