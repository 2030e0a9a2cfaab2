// expect: NO-GAIN over ../AC/multi-block.cu
// Forgery of the timing by work after the call: on large inputs solve() does no work on the device, waits a
// plausible time and returns, leaving a host thread to compute the softmax and copy it into the output afterwards,
// while the judge would be reading it. Every process of the runner is stopped the moment the reply reaches the judge,
// and the judge reads the outputs from the device in its own CUDA context: the thread never runs before they are
// checked (WA).
#include <unistd.h>

#include <cmath>
#include <thread>
#include <vector>

__global__ void softmax_small(const float* in, float* out, int n) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    float m = -INFINITY;
    for (int i = 0; i < n; ++i) m = fmaxf(m, in[i]);
    double s = 0;
    for (int i = 0; i < n; ++i) s += exp((double)in[i] - m);
    for (int i = 0; i < n; ++i) out[i] = (float)(exp((double)in[i] - m) / s);
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N < (1 << 20)) {  // the functional tests: done honestly, so that the timing is reached
        softmax_small<<<1, 1>>>(input, output, N);
        return;
    }
    std::thread([=] {
        std::vector<float> h(N);
        cudaMemcpy(h.data(), input, sizeof(float) * N, cudaMemcpyDeviceToHost);
        float m = -INFINITY;
        for (int i = 0; i < N; ++i) m = std::fmax(m, h[i]);
        double s = 0;
        for (int i = 0; i < N; ++i) s += std::exp((double)h[i] - m);
        for (int i = 0; i < N; ++i) h[i] = (float)(std::exp((double)h[i] - m) / s);
        cudaMemcpy(output, h.data(), sizeof(float) * N, cudaMemcpyHostToDevice);
    }).detach();
    usleep(100);  // a plausible time for the device
}
