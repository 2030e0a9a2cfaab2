// __shared__ declared in a switch's case without braces, its name in scope at the later case labels (valid CUDA: a
// jump may cross a __shared__ declaration, which has no initialisation), in many blocks side by side: each block
// must see its own tile. An exit with status 3 reports a block that read another's.
// (tests/emulate/check_blocks.py, through hpcjudge-count-probe.)
#include <cstdio>
#include <unistd.h>

constexpr int kBlocks = 64, kThreads = 64;

__global__ void by_mode(int mode, int* wrong) {
  const int t = threadIdx.x;
  switch (mode) {
    case 0:
      __shared__ int tile[kThreads];
      tile[t] = blockIdx.x;
      __syncthreads();
      if (tile[(t + 1) % kThreads] != static_cast<int>(blockIdx.x)) atomicAdd(wrong, 1);
      break;
    default:
      if (t == 0) atomicAdd(wrong, 0);
  }
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  int* wrong;
  cudaMalloc(&wrong, sizeof(int));
  cudaMemset(wrong, 0, sizeof(int));
  by_mode<<<kBlocks, kThreads>>>(0, wrong);
  by_mode<<<kBlocks, kThreads>>>(1, wrong);
  int bad = 0;
  cudaMemcpy(&bad, wrong, sizeof bad, cudaMemcpyDeviceToHost);
  if (bad != 0) {
    std::fprintf(stderr, "shared-in-a-switch: %d reads of another block's tile\n", bad);
    _exit(3);
  }
  cudaFree(wrong);
}
