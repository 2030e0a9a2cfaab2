// expect: NO-GAIN over ../AC/float4-grid-stride.cu
// Forgery of the timing through the L2 cache: the submission sets aside the largest persisting L2 it may and puts
// an access-policy window with hit ratio 1 over its inputs, so that their lines stay in L2 across the judge's cache
// flush (lines marked persisting are not evicted by ordinary traffic) and the next call, whose inputs the judge
// writes into the same addresses, reads them from L2 instead of memory. Before every timed call the judge sets the
// persisting-L2 limit to 0 and resets persisting lines to normal, then flushes: nothing carries over.
#include <algorithm>

__global__ void add(const float* A, const float* B, float* C, long long N) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    static cudaStream_t stream = nullptr;
    static cudaDeviceProp prop{};
    if (!stream) {
        cudaGetDeviceProperties(&prop, 0);
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    }
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize);
    cudaStreamAttrValue attr{};
    attr.accessPolicyWindow.base_ptr = const_cast<float*>(A);
    attr.accessPolicyWindow.num_bytes =
        std::min<size_t>(sizeof(float) * (size_t)N, (size_t)prop.accessPolicyMaxWindowSize);
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
    cudaGetLastError();  // a device without persisting L2 refuses: then it is an honest add
    add<<<1024, 256, 0, stream>>>(A, B, C, N);
}
