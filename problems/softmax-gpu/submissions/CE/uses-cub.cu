// Finds the maximum with cub::DeviceReduce. CUB is header-only, so this compiles and links; it must still get CE
// quoting the rule: softmax-gpu allows the C++ standard library and the CUDA runtime only.
// hpcjudge-test: message=uses CUB
// hpcjudge-test: message=softmax-gpu allows the C++ standard library and the CUDA runtime only
#include <cub/cub.cuh>

__global__ void normalise(const float* x, float* y, const float* m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = expf(x[i] - *m);  // (the sum is left out: the rule is what this file tests)
}

extern "C" void solve(const float* input, float* output, int N) {
    float* max = nullptr;
    void* scratch = nullptr;
    size_t bytes = 0;
    cudaMalloc(&max, sizeof(float));
    cub::DeviceReduce::Max(scratch, bytes, input, max, N);
    cudaMalloc(&scratch, bytes);
    cub::DeviceReduce::Max(scratch, bytes, input, max, N);
    normalise<<<(N + 255) / 256, 256>>>(input, output, max, N);
    cudaFree(scratch);
    cudaFree(max);
}
